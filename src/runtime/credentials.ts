// Whether this process has credentials for the Messages API, as the SDK's client would find them
// (issue 31 item 7: no pretending). `run`, `worker`, `dev` and `up` stop at once without them; the
// scripted demo model runs only when asked for (`demo`, or `--demo-model` for tests).
import { loadConfigWithSource } from '@anthropic-ai/sdk/core/credentials';

/**
 * The one line a command prints when there are none. What the SDK (1.14) accepts, in its order:
 * an API key, a bearer token, then its credential chain (a profile under ANTHROPIC_CONFIG_DIR,
 * named by ANTHROPIC_PROFILE or active; OIDC federation from ANTHROPIC_FEDERATION_RULE_ID,
 * ANTHROPIC_ORGANIZATION_ID and an identity token). ANTHROPIC_BASE_URL only says where to send
 * the requests: a compatible endpoint still gets its key or token from these.
 */
export const NO_CREDENTIALS_MESSAGE =
  'no Anthropic API credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token, or an SDK profile: ANTHROPIC_PROFILE / ANTHROPIC_CONFIG_DIR; ANTHROPIC_BASE_URL alone is not enough: a compatible endpoint takes its key or token from these). Without one, `durable-agent demo` (npm run demo) runs the built-in scripted demo model.';

/**
 * Where this process's model credentials come from (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`,
 * `profile <name>`, `OIDC federation`), or undefined when the SDK would find none. An SDK
 * configuration that is named but broken (ANTHROPIC_PROFILE naming a missing profile, a config
 * file that does not parse) throws the SDK's own message.
 */
export async function modelCredentials(): Promise<string | undefined> {
  const env = process.env;
  // As the SDK reads them: trimmed, empty is unset.
  if (env.ANTHROPIC_API_KEY?.trim()) return 'ANTHROPIC_API_KEY';
  if (env.ANTHROPIC_AUTH_TOKEN?.trim()) return 'ANTHROPIC_AUTH_TOKEN';
  const loaded = await loadConfigWithSource();
  if (!loaded) return undefined;
  if (!loaded.fromFile) return 'OIDC federation (ANTHROPIC_FEDERATION_RULE_ID)';
  return `the SDK profile ${env.ANTHROPIC_PROFILE?.trim() || 'active in ANTHROPIC_CONFIG_DIR'}`;
}
