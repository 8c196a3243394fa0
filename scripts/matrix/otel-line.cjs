#!/usr/bin/env node
// Prints, for the node_modules under the current directory, which OpenTelemetry JS line is
// installed: "2.x (core 2.12.1, sdk-node 0.223.0, api 1.9.0)", and "mixed" plus the odd
// copies when packages of both lines are present anywhere in the tree.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function version(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

// Every @opentelemetry/* package anywhere in node_modules.
const found = [];
function walk(nm) {
  let entries;
  try {
    entries = fs.readdirSync(nm, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    if (e.name.startsWith('@')) {
      for (const s of fs.readdirSync(path.join(nm, e.name), { withFileTypes: true })) {
        if (!s.isDirectory()) continue;
        const dir = path.join(nm, e.name, s.name);
        if (e.name === '@opentelemetry')
          found.push({ name: `${e.name}/${s.name}`, version: version(dir), dir });
        walk(path.join(dir, 'node_modules'));
      }
    } else if (!e.name.startsWith('.')) {
      walk(path.join(nm, e.name, 'node_modules'));
    }
  }
}
walk(path.resolve('node_modules'));

// Which line a package version belongs to (api, semantic-conventions and contrib are versioned apart).
function line(name, v) {
  if (!v || name === '@opentelemetry/api' || name === '@opentelemetry/semantic-conventions')
    return undefined;
  if (
    /^@opentelemetry\/(instrumentation-|resource-detector-|propagation-utils|host-metrics)/.test(
      name,
    )
  )
    return undefined;
  const [maj, min] = v.split('.').map(Number);
  if (maj === 2 || (maj === 0 && min >= 200 && min < 300)) return '2.x';
  if (maj === 3 || (maj === 0 && min >= 300 && min < 400)) return '3.x';
  if (maj === 1 || (maj === 0 && min < 200)) return '1.x';
  return `${maj}.x`;
}

const top = (n) => version(path.resolve('node_modules', '@opentelemetry', n)) || '-';
const lines = new Map();
for (const f of found) {
  const l = line(f.name, f.version);
  if (!l) continue;
  if (!lines.has(l)) lines.set(l, []);
  lines.get(l).push(f);
}
const coreLine = line('@opentelemetry/core', top('core')) || '?';
let label = `${coreLine} (core ${top('core')}, sdk-node ${top('sdk-node')}, api ${top('api')})`;
const others = [...lines.keys()].filter((l) => l !== coreLine);
if (others.length > 0) {
  const odd = others.flatMap((l) => lines.get(l)).map((f) => `${f.name}@${f.version}`);
  label = `mixed ${label} + ${odd.slice(0, 3).join(' ')}${odd.length > 3 ? ` +${odd.length - 3} more` : ''}`;
}
console.log(label);
