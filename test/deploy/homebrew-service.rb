# A stand-in for the part of Homebrew's formula DSL that `brew services` reads (Library/Homebrew/service.rb):
# it loads deploy/homebrew/corral.rb, evaluates its `service do` block and prints the service's command and
# environment as JSON. `std_service_path_env` is Homebrew's own definition.
require "json"
require "pathname"

HOMEBREW_PREFIX = Pathname(ARGV.fetch(1))

class Formula
  class << self
    attr_reader :service_block

    def service(&block) = (@service_block = block)
    def test(*) = nil
    def method_missing(*) = nil
    def respond_to_missing?(*) = true
  end

  def opt_bin = HOMEBREW_PREFIX/"opt"/"corral"/"bin"
  def var = HOMEBREW_PREFIX/"var"
end

class ServiceStandIn
  attr_reader :spec

  def initialize(formula) = (@formula, @spec = formula, { environment_variables: {} })
  def run(command) = (@spec[:run] = Array(command).map(&:to_s))
  def environment_variables(vars) = @spec[:environment_variables].merge!(vars.transform_keys(&:to_s))
  def std_service_path_env = "#{HOMEBREW_PREFIX}/bin:#{HOMEBREW_PREFIX}/sbin:/usr/bin:/bin:/usr/sbin:/sbin"
  def keep_alive(*) = nil
  def log_path(*) = nil
  def error_log_path(*) = nil
  def method_missing(name, *) = @formula.respond_to?(name) ? @formula.public_send(name) : super
  def respond_to_missing?(name, all = false) = @formula.respond_to?(name) || super
end

load ARGV.fetch(0)
service = ServiceStandIn.new(Corral.new)
service.instance_eval(&Corral.service_block)
puts JSON.generate(service.spec)
