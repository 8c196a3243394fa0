/**
 * The seed's `skill_fingerprint` (../shared/seed/stale-agent-card.md), verbatim, as Python source
 * (needs `hashlib`, `json` and `typing.Any` imported), and a runner that applies it with a given
 * interpreter to the exact bytes of a card a server sent. Shared by the property cross-check in
 * test/core/fingerprint.test.ts and the live Python agents of the real-world suite.
 */
import { spawnSync } from 'node:child_process';

export const SEED_SKILL_FINGERPRINT_PY = String.raw`
def skill_fingerprint(card: dict[str, Any]) -> str:
    """Canonical hash over the fields that affect negotiation, excluding version."""
    skills = sorted(
        (
            {
                "id": s.get("id", ""),
                "inputModes": sorted(s.get("inputModes", [])),
                "outputModes": sorted(s.get("outputModes", [])),
            }
            for s in card.get("skills", [])
        ),
        key=lambda s: s["id"],
    )
    caps = card.get("capabilities", {})
    material = {
        "skills": skills,
        "streaming": bool(caps.get("streaming", False)),
        "pushNotifications": bool(caps.get("pushNotifications", False)),
    }
    blob = json.dumps(material, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()
`;

const RUN_ON_STDIN = String.raw`
import hashlib
import json
import sys
from typing import Any
${SEED_SKILL_FINGERPRINT_PY}
sys.stdout.write(skill_fingerprint(json.loads(sys.stdin.buffer.read().decode("utf-8"))))
`;

/**
 * The seed's fingerprint of the card whose JSON bytes are `cardBytes` (parsed by Python's own
 * `json.loads`, as a Python client would), computed by `python` (default `python3`).
 */
export function pythonSeedFingerprint(cardBytes: string | Uint8Array, python = 'python3'): string {
  const r = spawnSync(python, ['-c', RUN_ON_STDIN], { input: cardBytes, encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${python} failed (${r.status}): ${r.stderr}`);
  return r.stdout.trim();
}
