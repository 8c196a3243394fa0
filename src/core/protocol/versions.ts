/**
 * Protocol versions as data: PROTOCOL_VERSIONS has one row per A2A version, and the request
 * decoders (jsonrpc.ts, http-json.ts, grpc.ts) and the result decoder's version evidence
 * (results.ts) are built from it (compileVersions). A row says, for its version:
 * - `jsonRpcMethods`: the JSON-RPC method names it has, each → the 1.0 operation name; a name
 *   that only one row lists proves that version, a name several rows share does not;
 * - `rest`: the HTTP+JSON paths' prefix (0.3 `/v1`, 1.0 none) and the operations it serves there;
 * - `grpc`: its gRPC service's full name and method names;
 * - `resultShapes`: the shapes its responses and stream events may show (a decoded document's
 *   version is set only when its shapes leave one row).
 * Adding a version is one row here plus fixtures. Also here: how a version string is
 * normalised (`0.3.0` → `0.3`), and which version a card offers at an endpoint. Pure and total.
 */
import type { OperationName } from '../model';

/**
 * A version as `major.minor`. The known ones are listed in PROTOCOL_VERSIONS; later 1.x are
 * accepted as they come.
 */
export type ProtocolVersion = `${number}.${number}`;

/** `0` = the 0.x line (slash-style method names), `1` = the 1.x line (PascalCase). */
export type VersionFamily = '0' | '1';

/**
 * `major.minor` from a version string (`1.0`, ` 0.3.0 `, a card's `protocolVersion`, an
 * `A2A-Version` header), else undefined. Only digits and dots are accepted.
 */
export function normaliseVersion(v: unknown): ProtocolVersion | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t.length === 0 || t.length > 16) return undefined;
  const m = /^(\d{1,3})\.(\d{1,3})(?:\.\d{1,5})?$/.exec(t);
  if (m === null) return undefined;
  return `${Number(m[1])}.${Number(m[2])}`;
}

/** Major version number of a normalised `major.minor` string. */
export function majorOf(v: string): string {
  const i = v.indexOf('.');
  return i < 0 ? v : v.slice(0, i);
}

/** The family of a version (`0.x` or later). */
export function familyOf(v: string): VersionFamily {
  return majorOf(v) === '0' ? '0' : '1';
}

function compareVersions(a: string, b: string): number {
  const [a1, a2] = a.split('.').map(Number);
  const [b1, b2] = b.split('.').map(Number);
  return a1 !== b1 ? a1 - b1 : a2 - b2;
}

/**
 * The version a card speaks, for its GetAgentCard span: the highest of its top-level
 * `protocolVersion` (0.2.5+) and its interfaces' (1.0). A card that lists 1.0 interfaces speaks
 * 1.0 even with the 0.3 top-level field merged in for older clients (the Python SDK 1.x's).
 * Undefined when it says none.
 */
export function cardProtocolVersion(
  topLevel: string | undefined,
  endpointVersions: ReadonlyArray<string | undefined>,
): ProtocolVersion | undefined {
  let best: ProtocolVersion | undefined = normaliseVersion(topLevel);
  for (const raw of endpointVersions) {
    const v = normaliseVersion(raw);
    if (v !== undefined && (best === undefined || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

/**
 * The version a request that did not say its own speaks, from the card: among the versions
 * the card offers at that endpoint (several when one URL serves 1.0 and 0.3, as ADK's
 * cards do), the highest one of the request's family; else the card's top-level version
 * when it is of that family.
 */
export function versionForFamily(
  family: VersionFamily,
  atEndpoint: ReadonlyArray<string | undefined>,
  topLevel: string | undefined,
): ProtocolVersion | undefined {
  let best: ProtocolVersion | undefined;
  for (const raw of atEndpoint) {
    const v = normaliseVersion(raw);
    if (
      v !== undefined &&
      familyOf(v) === family &&
      (best === undefined || compareVersions(v, best) > 0)
    )
      best = v;
  }
  if (best !== undefined) return best;
  const top = normaliseVersion(topLevel);
  return top !== undefined && familyOf(top) === family ? top : undefined;
}

// ---------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------

/**
 * A shape a response or stream event may show, as evidence of the versions that have it
 * (results.ts narrows a document's candidate versions by each shape it sees).
 */
export type ResultShape =
  /** parts and payloads told apart by `type` (0.1). */
  | 'type-discriminator'
  /** a task's context called `sessionId` (0.1). */
  | 'session-id'
  /** stream events without a discriminator, the task called `id` (0.1). */
  | 'bare-events'
  /** parts and payloads told apart by `kind` (0.2, 0.3 JSON-RPC). */
  | 'kind-discriminator'
  /** lowercase / kebab-case task states (`working`, `input-required`). */
  | 'lowercase-states'
  /** the lowercase states added in 0.2 (`rejected`, `auth-required`). */
  | 'lowercase-states-0.2'
  /** proto JSON on HTTP+JSON: payload wrappers (`{task}`, `{statusUpdate}`…), `TASK_STATE_*`. */
  | 'proto-json-rest'
  /** proto JSON inside a JSON-RPC envelope (0.3 JSON-RPC used `kind`). */
  | 'proto-json-jsonrpc'
  /** the 0.3 proto spelling `TASK_STATE_CANCELLED`. */
  | 'state-cancelled'
  /** the 1.0 spelling `TASK_STATE_CANCELED`. */
  | 'state-canceled'
  /** 0.3 proto JSON: a Message's parts in `content`. */
  | 'message-content'
  /** 0.3 proto JSON: a file part `{file: {fileWithUri|fileWithBytes, mimeType}}`. */
  | 'file-wrapper'
  /** a wrapped status update with `final` (removed in 1.0). */
  | 'update-final'
  /** `mediaType` on a part (1.0). */
  | 'media-type'
  /** file parts as `raw` / `url` (1.0). */
  | 'raw-url-parts';

export interface VersionRow {
  readonly version: ProtocolVersion;
  /** The method-name family (`0`: slash-style, `1`: PascalCase). */
  readonly family: VersionFamily;
  /** JSON-RPC method names of this version → the 1.0 operation each is. */
  readonly jsonRpcMethods: Readonly<Record<string, OperationName>>;
  /**
   * 0.1's params: the client names the task `id` and the session `sessionId` (TaskSendParams),
   * and a push config's task is `params.id`.
   */
  readonly taskSendParams?: boolean;
  /** The HTTP+JSON binding, if the version has one. */
  readonly rest?: {
    /** The segment right before the A2A path (`/v1`), or '' for none. */
    readonly prefix: string;
    readonly operations: readonly OperationName[];
    /** `GET {prefix}/card` is the authenticated extended card (0.3). */
    readonly cardPath?: boolean;
  };
  /** The gRPC binding, if the version has one. */
  readonly grpc?: {
    readonly service: string;
    readonly methods: Readonly<Record<string, OperationName>>;
  };
  readonly resultShapes: readonly ResultShape[];
}

const OPERATIONS: readonly OperationName[] = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'CancelTask',
  'SubscribeToTask',
  'ListTasks',
  'GetExtendedAgentCard',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
];

/** Every operation under its own name: the 1.0 JSON-RPC and gRPC method names. */
const SELF_NAMED = Object.fromEntries(OPERATIONS.map((op) => [op, op])) as Record<
  string,
  OperationName
>;

/** `tasks/get`, `tasks/cancel`, `tasks/resubscribe`: shared by 0.1–0.3. */
const TASK_METHODS_0X: Readonly<Record<string, OperationName>> = {
  'tasks/get': 'GetTask',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
};

/** The 0.2 method names, also 0.3's (`tasks/list` is a 0.4 draft's, seen on 0.3 servers). */
const METHODS_02: Readonly<Record<string, OperationName>> = {
  ...TASK_METHODS_0X,
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/pushNotificationConfig/set': 'CreateTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/get': 'GetTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/list': 'ListTaskPushNotificationConfigs',
  'tasks/pushNotificationConfig/delete': 'DeleteTaskPushNotificationConfig',
  'tasks/list': 'ListTasks',
};

/** Every A2A version, oldest first. */
export const PROTOCOL_VERSIONS: readonly VersionRow[] = [
  {
    version: '0.1',
    family: '0',
    jsonRpcMethods: {
      ...TASK_METHODS_0X,
      'tasks/send': 'SendMessage',
      'tasks/sendSubscribe': 'SendStreamingMessage',
      'tasks/pushNotification/set': 'CreateTaskPushNotificationConfig',
      'tasks/pushNotification/get': 'GetTaskPushNotificationConfig',
    },
    taskSendParams: true,
    resultShapes: ['type-discriminator', 'session-id', 'bare-events', 'lowercase-states'],
  },
  {
    version: '0.2',
    family: '0',
    jsonRpcMethods: METHODS_02,
    resultShapes: ['kind-discriminator', 'lowercase-states', 'lowercase-states-0.2'],
  },
  {
    version: '0.3',
    family: '0',
    jsonRpcMethods: { ...METHODS_02, 'agent/getAuthenticatedExtendedCard': 'GetExtendedAgentCard' },
    rest: {
      prefix: '/v1',
      operations: OPERATIONS.filter((op) => op !== 'ListTasks' && op !== 'GetExtendedAgentCard'),
      cardPath: true,
    },
    grpc: {
      service: 'a2a.v1.A2AService',
      methods: {
        SendMessage: 'SendMessage',
        SendStreamingMessage: 'SendStreamingMessage',
        GetTask: 'GetTask',
        CancelTask: 'CancelTask',
        TaskSubscription: 'SubscribeToTask',
        GetAgentCard: 'GetExtendedAgentCard',
        CreateTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
        GetTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
        ListTaskPushNotificationConfig: 'ListTaskPushNotificationConfigs',
        DeleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
      },
    },
    resultShapes: [
      'kind-discriminator',
      'lowercase-states',
      'lowercase-states-0.2',
      'proto-json-rest',
      'state-cancelled',
      'message-content',
      'file-wrapper',
      'update-final',
    ],
  },
  {
    version: '1.0',
    family: '1',
    jsonRpcMethods: {
      ...SELF_NAMED,
      // aliases seen in 1.0 drafts and docs
      SetTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
      ListTaskPushNotificationConfig: 'ListTaskPushNotificationConfigs',
      CreatePushNotificationConfig: 'CreateTaskPushNotificationConfig',
      GetPushNotificationConfig: 'GetTaskPushNotificationConfig',
      ListPushNotificationConfigs: 'ListTaskPushNotificationConfigs',
      DeletePushNotificationConfig: 'DeleteTaskPushNotificationConfig',
    },
    rest: { prefix: '', operations: OPERATIONS },
    grpc: { service: 'lf.a2a.v1.A2AService', methods: SELF_NAMED },
    resultShapes: [
      'proto-json-rest',
      'proto-json-jsonrpc',
      'state-canceled',
      'media-type',
      'raw-url-parts',
    ],
  },
];

// ---------------------------------------------------------------------------------------
// The table compiled for the decoders
// ---------------------------------------------------------------------------------------

/** A JSON-RPC method name as the rows listing it describe it. */
export interface JsonRpcMethod {
  op: OperationName;
  family: VersionFamily;
  /** The version the name alone proves: set when one row only lists it. */
  version?: string;
  /** The versions that have the name (an `A2A-Version` header within them is believed). */
  versions: readonly string[];
  /** Every row listing it has 0.1's TaskSendParams. */
  taskSendParams: boolean;
}

export interface VersionTable {
  readonly rows: readonly VersionRow[];
  readonly jsonRpc: ReadonlyMap<string, JsonRpcMethod>;
  /** HTTP+JSON prefixes other than '' (`/v1`). */
  readonly restPrefixes: readonly string[];
  /** gRPC service → the version it speaks (undefined when several rows share the service). */
  readonly grpcServices: ReadonlyMap<string, string | undefined>;
  /** gRPC method names of every service → the operation. */
  readonly grpcMethods: ReadonlyMap<string, OperationName>;
  /** Bit i stands for rows[i]; each shape → the bits of the rows that show it. */
  readonly shapeBits: ReadonlyMap<ResultShape, number>;
  readonly allBits: number;
  /** The bits of the rows of each method-name family. */
  readonly familyBits: Readonly<Record<VersionFamily, number>>;
}

/** At most this many rows are told apart by result shapes (one bit each). */
const MAX_SHAPE_ROWS = 30;

/** Builds the decoders' look-up tables from `rows` (the default: PROTOCOL_VERSIONS). */
export function compileVersions(rows: readonly VersionRow[]): VersionTable {
  const jsonRpc = new Map<string, JsonRpcMethod>();
  const grpcServices = new Map<string, string | undefined>();
  const grpcMethods = new Map<string, OperationName>();
  const restPrefixes: string[] = [];
  const shapeBits = new Map<ResultShape, number>();
  let allBits = 0;
  const familyBits: Record<VersionFamily, number> = { '0': 0, '1': 0 };
  rows.forEach((row, i) => {
    for (const [name, op] of Object.entries(row.jsonRpcMethods)) {
      const m = jsonRpc.get(name);
      const taskSendParams = row.taskSendParams === true;
      if (m === undefined)
        jsonRpc.set(name, {
          op,
          family: row.family,
          version: row.version,
          versions: [row.version],
          taskSendParams,
        });
      else {
        delete m.version;
        m.versions = [...m.versions, row.version];
        m.taskSendParams &&= taskSendParams;
      }
    }
    if (row.rest !== undefined && row.rest.prefix !== '' && !restPrefixes.includes(row.rest.prefix))
      restPrefixes.push(row.rest.prefix);
    if (row.grpc !== undefined) {
      const s = row.grpc.service;
      grpcServices.set(s, grpcServices.has(s) ? undefined : row.version);
      for (const [name, op] of Object.entries(row.grpc.methods))
        if (!grpcMethods.has(name)) grpcMethods.set(name, op);
    }
    if (i < MAX_SHAPE_ROWS) {
      allBits |= 1 << i;
      familyBits[row.family] |= 1 << i;
      for (const shape of row.resultShapes)
        shapeBits.set(shape, (shapeBits.get(shape) ?? 0) | (1 << i));
    }
  });
  return {
    rows,
    jsonRpc,
    restPrefixes,
    grpcServices,
    grpcMethods,
    shapeBits,
    allBits,
    familyBits,
  };
}

/** The decoders' default: PROTOCOL_VERSIONS compiled. */
export const VERSION_TABLE: VersionTable = compileVersions(PROTOCOL_VERSIONS);

/**
 * The family the candidate bits `bits` leave, when they leave rows of one family only (none
 * when no row is left: the shapes seen disagree).
 */
export function familyOfBits(table: VersionTable, bits: number): VersionFamily | undefined {
  if (bits === 0) return undefined;
  if ((bits & ~table.familyBits['0']) === 0) return '0';
  if ((bits & ~table.familyBits['1']) === 0) return '1';
  return undefined;
}

/** The version the candidate bits `bits` leave, when they leave exactly one row. */
export function versionOfBits(table: VersionTable, bits: number): string | undefined {
  if (bits === 0 || (bits & (bits - 1)) !== 0) return undefined;
  return table.rows[31 - Math.clz32(bits)]?.version;
}

/**
 * The HTTP+JSON version of a request: rows whose REST prefix is `prefix` (and, unless
 * `header` is given, which serve `op`; for the card path, which have it). With an
 * `A2A-Version` header: a 1.x header is believed (a 1.x base path may end in `/v1`), a 0.x one
 * when its row has REST under that prefix. Without one: the version when one row only fits.
 */
export function restVersion(
  table: VersionTable,
  op: OperationName,
  prefix: string,
  cardPath: boolean,
  header: unknown,
): string | undefined {
  const h = normaliseVersion(header);
  if (h !== undefined && !cardPath && majorOf(h) !== '0') return h;
  let only: string | undefined;
  let fits = 0;
  for (const r of table.rows) {
    const rest = r.rest;
    if (rest === undefined || rest.prefix !== prefix) continue;
    if (cardPath ? rest.cardPath !== true : h === undefined && !rest.operations.includes(op))
      continue;
    if (h !== undefined && r.version === h) return h;
    fits++;
    only = r.version;
  }
  return h === undefined && fits === 1 ? only : undefined;
}
