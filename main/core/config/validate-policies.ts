// The policy validator lives in shared/ so that the Settings form checks a rule with the very code
// that loads it.
export {
  MAX_POLICIES,
  POLICY_FLAGS,
  validatePolicies,
  validatePolicyMode,
} from '../../../shared/policy-validation';
