// Red team round x (issue 30): the bait HOME files the outside checker adds beside
// controlAttacks' (a docker login, a netrc, a kube config, an npm token, gh's hosts file, a git
// config with an inline credential helper and a token in a URL rewrite, an ed25519 key), and the
// person's git repository the rows start in.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ControlFixture } from './controlAttacks';
import { outsideProject } from './outsideChecker';

export const X_BAIT = {
  docker: 'BAIT-X-docker-61be',
  netrc: 'BAIT-X-netrc-07ac',
  kube: 'BAIT-X-kube-c2d9',
  npmrc: 'BAIT-X-npmrc-4f18',
  gh: 'BAIT-X-gh-93e0',
  gitHelper: 'BAIT-X-githelper-5a77',
  gitUrl: 'BAIT-X-giturl-b804',
  ed25519: 'BAIT-X-ed25519-1d3c',
} as const;

/** The bait files of round x in `home` (existing ones kept). */
export function writeMoreBait(home: string): void {
  const put = (rel: string, text: string) => {
    const p = path.join(home, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    if (!fs.existsSync(p)) fs.writeFileSync(p, text);
  };
  put('.docker/config.json', JSON.stringify({ auths: { 'ghcr.io': { auth: X_BAIT.docker } } }));
  put('.netrc', `machine api.example.com login bob password ${X_BAIT.netrc}\n`);
  put('.kube/config', `users:\n- name: admin\n  user:\n    token: ${X_BAIT.kube}\n`);
  put('.npmrc', `//registry.npmjs.org/:_authToken=${X_BAIT.npmrc}\n`);
  put('.config/gh/hosts.yml', `github.com:\n    oauth_token: ${X_BAIT.gh}\n    user: bob\n`);
  put(
    '.gitconfig',
    [
      '[user]',
      '\tname = Bob',
      '\temail = bob@example.com',
      '[credential]',
      `\thelper = "!f() { echo username=bob; echo password=${X_BAIT.gitHelper}; }; f"`,
      `[url "https://x-access-token:${X_BAIT.gitUrl}@github.com/"]`,
      '\tinsteadOf = https://github.com/',
      '',
    ].join('\n'),
  );
  put('.ssh/id_ed25519', `-----BEGIN OPENSSH PRIVATE KEY-----\n${X_BAIT.ed25519}\n-----END OPENSSH PRIVATE KEY-----\n`);
}

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** The person's git repository: their files committed on `main`, `node_modules/` ignored. */
export function gitProject(fx: ControlFixture, name: string): string {
  const p = outsideProject(fx, name);
  fs.writeFileSync(path.join(p, '.gitignore'), 'node_modules/\n');
  fs.writeFileSync(path.join(p, 'index.js'), 'module.exports = 1;\n');
  personGit(p, 'init', '-q', '-b', 'main');
  personGit(p, 'add', '-A');
  personGit(p, 'commit', '-qm', 'init');
  return p;
}

/** The person's own git in `cwd` (no global config of the test machine). */
export function personGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=p@example.com', '-c', 'user.name=p', ...args], {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
  });
}
