/** Kysely table shapes, column for column; timestamps are bigint Unix milliseconds, JSON columns are text. */

/** Row of `users`. */
export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  role: 'admin' | 'user';
  /** `scrypt$<salt>$<hash>`, or null for social-only accounts */
  password_hash: string | null;
  status: 'active' | 'disabled';
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `model_groups`. */
export interface ModelGroupsTable {
  id: string;
  name: string;
  description: string;
  /** JSON array of model ids */
  models: string;
  /** Unix milliseconds */
  created_at: number;
}

/** Row of `channels`. */
export interface ChannelsTable {
  id: string;
  name: string;
  protocol: string;
  preset: string | null;
  base_url: string;
  encrypted_secret: string;
  /** JSON array of public model ids */
  models: string;
  /** JSON object: public model id -> upstream model id */
  model_mapping: string;
  /** JSON object of protocol-specific settings (see ChannelRecord.settings) */
  settings: string;
  priority: number;
  weight: number;
  status: 'enabled' | 'disabled';
  /** Unix milliseconds */
  created_at: number;
  /** Unix milliseconds */
  updated_at: number;
}

/** Row of `api_keys`. */
export interface ApiKeysTable {
  id: string;
  user_id: string;
  group_id: string;
  name: string;
  /** lowercase hex SHA-256 of the full key */
  key_hash: string;
  key_prefix: string;
  status: 'active' | 'disabled';
  /** Unix milliseconds, or null for never */
  expires_at: number | null;
  /** Unix milliseconds */
  created_at: number;
}

/** The single row (id 1) whose counter goes up on every write that affects routing. */
export interface RoutingRevisionTable {
  id: number;
  revision: number;
}

/** Every table the gateway's Kysely instance knows. */
export interface DatabaseSchema {
  users: UsersTable;
  model_groups: ModelGroupsTable;
  channels: ChannelsTable;
  api_keys: ApiKeysTable;
  routing_revision: RoutingRevisionTable;
}
