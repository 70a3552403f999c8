import { dashboardEnglish } from './en/dashboard';
import { modelsEnglish } from './en/models';
import { topUpEnglish } from './en/top-up';
import { ledgerEnglish } from './en/ledger';
import { usageLogsEnglish } from './en/usage-logs';
import { auditLogEnglish } from './en/audit-log';
import { settingsEnglish } from './en/settings';
import { securityEnglish } from './en/security';
import { usersEnglish } from './en/users';
import { statusEnglish } from './en/status';
import { groupsEnglish } from './en/groups';
import { channelsEnglish } from './en/channels';
import { ordersEnglish } from './en/orders';
import { redemptionCodesEnglish } from './en/redemption-codes';

/** English strings: the reference catalog every other language must match key for key. */
export const english = {
  app: {
    name: 'Model Gateway',
    loading: 'Loading…',
    retry: 'Retry',
    unexpectedError: 'Something went wrong: {{message}}',
  },
  navigation: {
    label: 'Main navigation',
    open: 'Open navigation',
    userSection: 'My account',
    adminSection: 'Administration',
    dashboard: 'Dashboard',
    apiKeys: 'API keys',
    topUp: 'Top-up',
    usageLogs: 'Usage logs',
    ledger: 'Ledger',
    models: 'Models & prices',
    settings: 'Settings',
    users: 'Users',
    groups: 'Groups & prices',
    channels: 'Channels',
    orders: 'Orders',
    redemptionCodes: 'Redemption codes',
    allLogs: 'All usage logs',
    auditLog: 'Audit log',
    status: 'Status',
    signOut: 'Sign out',
    adminToken: 'Admin token',
  },
  preferences: {
    language: 'Language',
    theme: 'Theme',
    lightTheme: 'Light',
    darkTheme: 'Dark',
    switchToLight: 'Switch to the light theme',
    switchToDark: 'Switch to the dark theme',
  },
  signIn: {
    title: 'Sign in',
    subtitle: 'Manage your keys, usage and balance.',
    continueWith: 'Continue with {{name}}',
    or: 'or',
    email: 'Email',
    password: 'Password',
    togglePassword: 'Show or hide the password',
    submit: 'Sign in',
    noMethods: 'No sign-in method is configured. Ask the operator.',
    setupOpen: 'This gateway has no administrator yet: open the setup link printed in the gateway log.',
    errors: {
      access_denied: 'Sign-in was cancelled.',
      invalid_state: 'The sign-in took too long or was started elsewhere. Try again.',
      provider_error: 'The sign-in provider answered with an error. Try again.',
      account_disabled: 'This account is disabled.',
      identity_in_use: 'That account is already linked to another user.',
      email_in_use: 'An account with this email already exists. Sign in to it first, then link this provider under Settings.',
      not_signed_in: 'Sign in first, then link the account.',
      sign_up_closed: 'Sign-up is closed for this account. Ask the operator for access.',
      provider_not_configured: 'That sign-in provider is not configured.',
      unknown: 'Sign-in failed ({{code}}).',
    },
  },
  setup: {
    title: 'First-run setup',
    subtitle: 'Create the first administrator of this gateway.',
    email: 'Email',
    displayName: 'Display name',
    password: 'Password',
    passwordHint: 'At least 8 characters.',
    passwordTooShort: 'The password needs at least 8 characters.',
    emailInvalid: 'Enter an email address.',
    submit: 'Create administrator',
    missingToken: 'This page needs the setup link printed in the gateway log (it ends in ?token=…).',
    closed: 'Setup is finished: this gateway already has an administrator.',
    goToSignIn: 'Go to sign-in',
  },
  keys: {
    title: 'API keys',
    subtitle: 'Keys let programs call this gateway’s OpenAI-compatible API.',
    create: 'Create key',
    empty: 'You have no keys yet.',
    emptyHint: 'Create one to call models with the OpenAI SDK or curl.',
    columns: {
      name: 'Name',
      key: 'Key',
      group: 'Group',
      status: 'Status',
      spent: 'Spent / cap',
      expires: 'Expires',
      allowedIps: 'Allowed IPs',
      created: 'Created',
      lastUsed: 'Last used',
      actions: 'Actions',
    },
    noCap: 'no cap',
    never: 'never',
    anyAddress: 'any',
    unknownGroup: 'unknown group',
    status: {
      active: 'Active',
      disabled_by_owner: 'Disabled',
      disabled_by_admin: 'Disabled by an admin',
      group_not_granted: 'Group withdrawn',
      expired: 'Expired',
    },
    enable: 'Enable',
    disable: 'Disable',
    delete: 'Delete',
    deleteTitle: 'Delete key “{{name}}”?',
    deleteBody: 'Programs using this key will stop working at once. This cannot be undone.',
    cancel: 'Cancel',
    deleted: 'Key deleted.',
    enabledNotice: 'Key “{{name}}” enabled.',
    disabledNotice: 'Key “{{name}}” disabled.',
    adminOnlyEnable: 'Only an administrator can enable it again.',
    edit: {
      action: 'Edit',
      title: 'Edit key “{{name}}”',
      expiryKeep: 'Unchanged ({{date}})',
      expiryDate: 'On a date…',
      expiryDateLabel: 'Expiry date',
      expiryDateHint: 'The key works until the end of this day.',
      dateRequired: 'Choose a date.',
      dateInPast: 'Choose a day from today on.',
      nameTooLong: 'At most 100 characters.',
      allowedIps: 'Allowed IPs',
      allowedIpsHint: 'Addresses or CIDR ranges, one per line. Leave empty to allow any address.',
      submit: 'Save',
      saved: 'Key “{{name}}” saved.',
    },
    form: {
      title: 'Create an API key',
      name: 'Name',
      namePlaceholder: 'e.g. my laptop',
      group: 'Group',
      groupPlaceholder: 'Choose a group',
      groupRequired: 'Choose a group.',
      noGroups: 'You hold no group yet, so you cannot create keys. Ask the operator to grant you one.',
      groupOption_one: '{{name}} · ×{{ratio}} · {{count}} model',
      groupOption_other: '{{name}} · ×{{ratio}} · {{count}} models',
      groupModels: 'Models: {{models}}',
      expiry: 'Expires',
      expiryNever: 'Never',
      expiryDays_one: 'In {{count}} day',
      expiryDays_other: 'In {{count}} days',
      spendingCap: 'Spending cap',
      spendingCapHint: 'Leave empty for no cap.',
      spendingCapInvalid: 'Enter an amount such as 10 or 2.50.',
      submit: 'Create',
    },
    secret: {
      title: 'Your new key',
      warning: 'Copy it now: it is shown this once and cannot be seen again.',
      copy: 'Copy key',
      copied: 'Copied',
      curl: 'curl',
      python: 'Python',
      node: 'Node.js',
      done: 'I have copied it',
    },
  },
  dashboard: dashboardEnglish,
  models: modelsEnglish,
  topUp: topUpEnglish,
  ledger: ledgerEnglish,
  usageLogs: usageLogsEnglish,
  auditLog: auditLogEnglish,
  settings: settingsEnglish,
  security: securityEnglish,
  users: usersEnglish,
  status: statusEnglish,
  groups: groupsEnglish,
  channels: channelsEnglish,
  orders: ordersEnglish,
  redemptionCodes: redemptionCodesEnglish,
} as const;

/** A catalog: the English catalog's shape with any strings; `_one` plural forms are optional (Chinese has one form). */
export type Catalog = DeepStrings<typeof english>;

/** A plural key's singular form, which languages without it (Chinese: `_other` only) leave out. */
type SingularKey = `${string}_one`;

type DeepStrings<Shape> = { [Key in keyof Shape as Key extends SingularKey ? never : Key]: Shape[Key] extends string ? string : DeepStrings<Shape[Key]> } & {
  [Key in keyof Shape as Key extends SingularKey ? Key : never]?: string;
};
