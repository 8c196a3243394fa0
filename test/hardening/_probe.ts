import { judge, compilePatterns } from '../../src/core/judge';
const opts = { unknownSkillPatterns: compilePatterns(['unknown skill']), unsupportedModePatterns: compilePatterns(['unsupported mode']), strictTextParts: false };
for (const r of [undefined, null, 1, {}, {artifacts: 5}, {artifacts:[null]}, {artifacts:[{parts: null}]}, {error: 1}]) {
  try { console.log(JSON.stringify(judge(undefined, {cardKnown:true, skillId:'a', outputModes:['text/plain']} as any, r as any, opts))); } catch (e) { console.log('THROW', r, (e as Error).message); }
}
try { console.log(judge(undefined, undefined as any, {kind:'task', artifacts:[]} as any, opts)); } catch (e) { console.log('THROW ctx undefined', (e as Error).message); }
try { console.log(judge(undefined, {cardKnown:true} as any, {kind:'task', artifacts:[]} as any, undefined as any)); } catch (e) { console.log('THROW opts undefined', (e as Error).message); }
