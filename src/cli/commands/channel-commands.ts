import type { Command } from 'commander';
import { channelProtocols, isChannelProtocol } from '../../core/channel-protocol.js';
import { accountActorOfCommandLine } from '../../accounts/account-actor.js';
import { createChannelService, type ChannelService } from '../../routing/channel-service.js';
import { findVendorPreset, vendorPresets } from '../../routing/vendor-presets.js';
import type { ChannelRecord } from '../../storage/store-records.js';
import { parseList, printResult, withCliStore, type CliContext } from '../open-cli-store.js';
import { operatingSystemUserName } from '../open-cli-services.js';

interface ChannelCreateOptions {
  name: string;
  preset?: string;
  baseUrl?: string;
  secretEnv?: string;
  secret?: string;
  models: string;
  map?: string;
  protocol?: string;
  setting?: string;
  priority: string;
  weight: string;
  json?: boolean;
}

/** `gateway channel create|list|enable|disable|delete|presets`. */
export function registerChannelCommands(program: Command): void {
  const channel = program.command('channel').description('manage upstream channels (vendor accounts)');
  channel
    .command('create')
    .requiredOption('--name <name>', 'unique channel name')
    .option('--preset <preset>', `vendor preset: ${vendorPresets.map((preset) => preset.name).join(', ')}`)
    .option('--base-url <url>', "upstream base URL with its version prefix (overrides the preset's)")
    .option('--secret-env <variable>', 'read the upstream API key from this environment variable (preferred)')
    .option('--secret <key>', 'the upstream API key (visible in the process list; prefer --secret-env)')
    .requiredOption('--models <ids>', 'comma-separated public model ids this channel serves')
    .option('--map <pairs>', 'public=upstream model name pairs, comma-separated')
    .option(
      '--protocol <protocol>',
      "wire protocol: openai, azure, anthropic, gemini, bedrock or vertex (default: the preset's, else openai)",
    )
    .option(
      '--setting <pairs>',
      'protocol settings as name=value pairs, comma-separated (e.g. apiVersion=2024-10-21, region=us-east-1, premiumFields=service_tier,web_search_options)',
    )
    .option('--priority <number>', 'higher is tried first', '0')
    .option('--weight <number>', 'share of traffic among equal priorities', '1')
    .option('--json', 'print the result as JSON')
    .action((options: ChannelCreateOptions) => createChannel(options));
  channel
    .command('list')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliStore(async (context) => {
        const channels = (await channelServiceOf(context).listChannels(commandLineActor())).map(hideSecret);
        const lines = channels.map(
          (entry) =>
            `${entry.name}  ${entry.status.padEnd(8)}  p${entry.priority} w${entry.weight}  ${entry.baseUrl}  ${entry.models.join(', ')}`,
        );
        printResult(options.json, channels, lines.join('\n') || 'no channels');
      }),
    );
  for (const status of ['enabled', 'disabled'] as const) {
    const action = status === 'enabled' ? 'enable' : 'disable';
    channel
      .command(`${action} <name>`)
      .option('--json', 'print the changed channel as JSON')
      .action((name: string, options: { json?: boolean }) =>
        withCliStore(async (context) => {
          const channels = channelServiceOf(context);
          const actor = commandLineActor();
          const found = await channels.findChannelByName(actor, name);
          const changed = await channels.setChannelStatus(actor, found.id, status);
          printResult(options.json, hideSecret(changed), `Channel ${name} ${status}.`);
        }),
      );
  }
  channel
    .command('delete <name>')
    .option('--json', 'print the result as JSON')
    .action((name: string, options: { json?: boolean }) =>
      withCliStore(async (context) => {
        const channels = channelServiceOf(context);
        const actor = commandLineActor();
        const found = await channels.findChannelByName(actor, name);
        await channels.deleteChannel(actor, found.id);
        printResult(options.json, { id: found.id, name, deleted: true }, `Deleted channel ${name}.`);
      }),
    );
  channel
    .command('presets')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) => {
      printResult(
        options.json,
        vendorPresets,
        vendorPresets.map((preset) => `${preset.name.padEnd(12)} ${preset.baseUrl}`).join('\n'),
      );
    });
}

async function createChannel(options: ChannelCreateOptions): Promise<void> {
  const preset = options.preset ? findVendorPreset(options.preset) : undefined;
  if (options.preset && !preset) throw new Error(`Unknown preset ${options.preset}; see 'gateway channel presets'`);
  const baseUrl = options.baseUrl ?? preset?.baseUrl;
  if (!baseUrl) throw new Error('Give --base-url or --preset');
  const protocol = options.protocol ?? preset?.protocol ?? 'openai';
  if (!isChannelProtocol(protocol))
    throw new Error(`Unknown protocol ${protocol}; use one of ${channelProtocols.join(', ')}`);
  const secret = options.secretEnv ? process.env[options.secretEnv] : options.secret;
  if (!secret) throw new Error('Give the upstream key with --secret-env VARIABLE (or --secret)');
  await withCliStore(async (context) => {
    const created = await channelServiceOf(context).createChannel(commandLineActor(), {
      name: options.name,
      preset: preset?.name,
      protocol,
      baseUrl,
      secret,
      models: parseList(options.models),
      modelMapping: parseNameValuePairs(options.map, '--map'),
      settings: parseNameValuePairs(options.setting, '--setting', { listValues: true }),
      priority: Number.parseInt(options.priority, 10),
      weight: Number.parseInt(options.weight, 10),
    });
    printResult(options.json, hideSecret(created), `Created channel ${created.name} for ${created.models.join(', ')}.`);
  });
}

/** The channel service over the CLI's store: no routing table to reload and no vendor probe in a command. */
function channelServiceOf({ store, secretBox }: CliContext): ChannelService {
  return createChannelService({
    channels: store,
    audit: store,
    secretBox,
    exclusive: (work) => work(),
    refreshRouting: async () => undefined,
  });
}

function commandLineActor() {
  return accountActorOfCommandLine(operatingSystemUserName());
}

/**
 * `gpt-4o=gpt-4o-2024-08-06,fast=llama-3.1-8b` -> `{ 'gpt-4o': 'gpt-4o-2024-08-06', fast: 'llama-3.1-8b' }`. With
 * `listValues`, an item without `=` continues the previous value, so `premiumFields=service_tier,audio` keeps its list.
 */
export function parseNameValuePairs(
  pairs: string | undefined,
  optionName: string,
  options: { listValues?: boolean } = {},
): Record<string, string> {
  const mapping: Record<string, string> = {};
  let previousName: string | undefined;
  for (const pair of parseList(pairs ?? '')) {
    const separator = pair.indexOf('=');
    if (separator === -1 && options.listValues && previousName !== undefined && pair.trim()) {
      mapping[previousName] += `,${pair.trim()}`;
      continue;
    }
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    if (separator === -1 || !name || !value) throw new Error(`Bad ${optionName} pair "${pair}"; use name=value`);
    mapping[name] = value;
    previousName = name;
  }
  return mapping;
}

function hideSecret({
  encryptedSecret: _encryptedSecret,
  ...rest
}: ChannelRecord): Omit<ChannelRecord, 'encryptedSecret'> {
  return rest;
}
