#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4 --heap-growing-percent=100 --liftoff-only
import { Command } from 'commander';
import { registerAdminTokenCommand } from './commands/admin-token-command.js';
import { registerAuditCommands } from './commands/audit-commands.js';
import { registerBillingCommands } from './commands/billing-commands.js';
import { registerChannelCommands } from './commands/channel-commands.js';
import { registerGroupCommands } from './commands/group-commands.js';
import { registerKeyCommands } from './commands/key-commands.js';
import { registerOrderCommands } from './commands/order-commands.js';
import { registerPriceCommands } from './commands/price-commands.js';
import { registerRedemptionCommands } from './commands/redemption-commands.js';
import { registerServerCommands } from './commands/server-commands.js';
import { registerUserCommands } from './commands/user-commands.js';
import { registerUserTopupCommand } from './commands/user-topup-command.js';

const program = new Command('gateway').description('An OpenAI-compatible gateway in front of many model vendors.');
registerServerCommands(program);
registerUserCommands(program);
registerGroupCommands(program);
registerChannelCommands(program);
registerKeyCommands(program);
registerPriceCommands(program);
registerBillingCommands(program);
registerOrderCommands(program);
registerRedemptionCommands(program);
registerUserTopupCommand(program);
registerAdminTokenCommand(program);
registerAuditCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
