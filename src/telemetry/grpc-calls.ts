/**
 * The gRPC binding's calls: the delegate of the gRPC client hook (hooks/grpc-client.ts). A call
 * of an A2A service (core/protocol/grpc.ts: by full service name) becomes an A2ACall, the same
 * lifecycle as the JSON bindings' (negotiation, judge, counter, callbacks, re-fetch, content
 * confirmation); its messages and final status are decoded by the core and handed to it. The
 * card is the one whose GRPC interface is the channel target (`grpc://host:port`). Enforce mode:
 * a call that showed drift ends with FAILED_PRECONDITION instead of what the peer said.
 */
import { context, propagation, trace, type Context } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { logger } from '../diag-logger';
import type { ResolvedConfig } from '../config';
import type { DecodedRequest } from '../core/model';
import { requestExtensions } from '../core/protocol/common';
import {
  GRPC_CANCELLED_BY_CLIENT,
  GRPC_STATUS_CANCELLED,
  GRPC_STATUS_FAILED_PRECONDITION,
  decodeGrpcRequest,
  decodeGrpcResponse,
  decodeGrpcStatus,
  decodeGrpcStreamMessage,
  grpcTargetUrl,
  isA2AGrpcService,
  splitGrpcPath,
} from '../core/protocol/grpc';
import type {
  GrpcCallInfo,
  GrpcCallObserver,
  GrpcClientDelegate,
  GrpcMetadataCarrier,
  GrpcStatusAnswer,
} from '../hooks/grpc-client';
import type { A2ACall } from './a2a-call';
import type { CallTarget } from './call-judgement';
import { OWN_REQUEST_KEY } from './own-requests';
import { extensionsAttributes, grpcCallAttributes } from './span-attributes';

export interface GrpcCallsHost {
  isActive(): boolean;
  config(): ResolvedConfig;
  newCall(target: CallTarget, url: string, parent: Context, startTime?: number): A2ACall;
}

const STATUS_DETAILS_BIN = 'grpc-status-details-bin';

export class GrpcCalls implements GrpcClientDelegate {
  constructor(private readonly host: GrpcCallsHost) {}

  wantsService(serviceName: string): boolean {
    return isA2AGrpcService(serviceName);
  }

  onCall(info: GrpcCallInfo): GrpcCallObserver | undefined {
    if (!this.host.isActive()) return undefined;
    const parent = context.active();
    if (parent.getValue(OWN_REQUEST_KEY)) return undefined;
    const p = splitGrpcPath(info.path);
    if (p === undefined || !isA2AGrpcService(p.service)) return undefined;
    return new GrpcExchange(this.host, info, p.service, p.method, parent);
  }
}

/** One gRPC call of an A2A service. */
class GrpcExchange implements GrpcCallObserver {
  private call: A2ACall | undefined;
  private readonly startTime = Date.now();
  private readonly url: string;
  private readonly enforce: boolean;
  /** Enforce mode ended this stream (the call below was then cancelled). */
  private rejected = false;

  constructor(
    private readonly host: GrpcCallsHost,
    private readonly info: GrpcCallInfo,
    private readonly service: string,
    private readonly method: string,
    private readonly parent: Context,
  ) {
    this.url = grpcTargetUrl(info.target) ?? info.target;
    this.enforce = host.config().enforce;
    if (info.request !== undefined) this.begin(info.request);
  }

  /** The span starts once the request is known (at the call for unary and server streams). */
  private begin(message: unknown): void {
    if (this.call !== undefined) return;
    const request: DecodedRequest | undefined = decodeGrpcRequest(
      this.info.path,
      message,
      this.host.config().skillIdPaths,
    );
    if (request === undefined) return;
    const call = this.host.newCall(
      { type: 'operation', request },
      this.url,
      this.parent,
      this.startTime,
    );
    call.span.setAttributes(grpcCallAttributes(this.service, this.method));
    this.call = call;
  }

  onStart(metadata: GrpcMetadataCarrier): void {
    const call = this.call;
    if (call === undefined || isTracingSuppressed(this.parent)) return;
    const extensions = requestExtensions(
      metadata.get('a2a-extensions'),
      metadata.get('x-a2a-extensions'),
    );
    if (extensions !== undefined) call.span.setAttributes(extensionsAttributes(extensions));
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(this.parent, call.span), carrier);
    for (const name of Object.keys(carrier))
      if (metadata.get(name) === undefined) metadata.set(name, carrier[name]!);
  }

  onRequest(message: unknown): void {
    this.begin(message);
  }

  onMessage(message: unknown): GrpcStatusAnswer | undefined {
    const call = this.call;
    // grpc-js hands a cancelled unary call's listener a null message before its status
    if (call === undefined || message === null || typeof message !== 'object') return undefined;
    const req = call.request;
    if (req === undefined) return undefined;
    call.grpcMessage(
      req.streaming ? decodeGrpcStreamMessage(message, req) : decodeGrpcResponse(message, req),
    );
    // enforce mode, streams: the message showing drift is not passed on; the call ends
    if (this.enforce && req.streaming) {
      const answer = this.rejection(call);
      if (answer !== undefined) this.rejected = true;
      return answer;
    }
    return undefined;
  }

  onStatus(status: {
    code: number;
    details: string;
    metadata: unknown;
  }): GrpcStatusAnswer | Promise<GrpcStatusAnswer | undefined> | undefined {
    const call = this.call;
    if (call === undefined) return undefined;
    const code = typeof status.code === 'number' ? status.code : 2;
    // by the app (`call.cancel()`), or by us when enforce mode ended a stream
    const cancelled =
      this.rejected ||
      (code === GRPC_STATUS_CANCELLED && status.details === GRPC_CANCELLED_BY_CLIENT);
    const error =
      code === 0 || cancelled
        ? undefined
        : decodeGrpcStatus(code, status.details, statusDetailsBin(status.metadata));
    call.grpcStatus(code, error, cancelled);
    if (!this.enforce || cancelled) return undefined;
    const pending = call.pendingConfirmation;
    if (pending !== undefined) return pending.then(() => this.rejection(call));
    return this.rejection(call);
  }

  /** Enforce mode: the status the app gets for a call that showed drift. */
  private rejection(call: A2ACall): GrpcStatusAnswer | undefined {
    const drift = call.enforceableDrift;
    if (drift === undefined) return undefined;
    return {
      code: GRPC_STATUS_FAILED_PRECONDITION,
      details: `${drift.error.name}: ${drift.error.message}`,
    };
  }
}

/** The `grpc-status-details-bin` trailer's bytes, if any (grpc-js Metadata). */
function statusDetailsBin(metadata: unknown): Uint8Array | undefined {
  try {
    const get = (metadata as { get?: (k: string) => unknown[] } | undefined)?.get;
    if (typeof get !== 'function') return undefined;
    const v = get.call(metadata, STATUS_DETAILS_BIN)[0];
    return v instanceof Uint8Array ? v : undefined;
  } catch (err) {
    logger.debug('could not read grpc-status-details-bin', err);
    return undefined;
  }
}
