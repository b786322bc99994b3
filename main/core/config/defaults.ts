export { DEFAULT_SETTINGS } from '../../../shared/settings-table';
