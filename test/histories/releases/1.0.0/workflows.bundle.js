var __TEMPORAL__;
/******/ (() => { // webpackBootstrap
/******/ 	var __webpack_modules__ = ({

/***/ "./node_modules/@temporalio/common/lib/activity-cancellation-details.js"
/*!******************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/activity-cancellation-details.js ***!
  \******************************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.ActivityCancellationDetails = void 0;
/**
 * Provides the reasons for the activity's cancellation. Cancellation details are set once and do not change once set.
 */
class ActivityCancellationDetails {
    notFound;
    cancelRequested;
    paused;
    timedOut;
    workerShutdown;
    reset;
    constructor(options = {}) {
        this.notFound = options.notFound ?? false;
        this.cancelRequested = options.cancelRequested ?? false;
        this.paused = options.paused ?? false;
        this.timedOut = options.timedOut ?? false;
        this.workerShutdown = options.workerShutdown ?? false;
        this.reset = options.reset ?? false;
    }
    static fromProto(proto) {
        if (proto == null) {
            return new ActivityCancellationDetails();
        }
        return new ActivityCancellationDetails({
            notFound: proto.isNotFound ?? false,
            cancelRequested: proto.isCancelled ?? false,
            paused: proto.isPaused ?? false,
            timedOut: proto.isTimedOut ?? false,
            workerShutdown: proto.isWorkerShutdown ?? false,
            reset: proto.isReset ?? false,
        });
    }
}
exports.ActivityCancellationDetails = ActivityCancellationDetails;


/***/ },

/***/ "./node_modules/@temporalio/common/lib/activity-definition-options.js"
/*!****************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/activity-definition-options.js ***!
  \****************************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.isActivityFunctionWithOptions = isActivityFunctionWithOptions;
const activityDefinitionOptionsProperty = 'activityDefinitionOptions';
/** @internal */
function isActivityFunctionWithOptions(value) {
    if (typeof value !== 'function' || !Object.hasOwn(value, activityDefinitionOptionsProperty)) {
        return false;
    }
    const { activityDefinitionOptions } = value;
    return typeof activityDefinitionOptions === 'object' && activityDefinitionOptions !== null;
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/activity-options.js"
/*!*****************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/activity-options.js ***!
  \*****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var _a;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.decodeActivityCancellationType = exports.encodeActivityCancellationType = exports.ActivityCancellationType = void 0;
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
// Note: The types defined in this file are here for legacy reasons. They should have been defined
// in the 'workflow' package, instead of 'common'. They are now reexported from the 'workflow'
// package, which is the preferred way to import them, but we unfortunately can't remove them from
// here as that would be a breaking change.
/**
 * Determines:
 * - whether cancellation requests should be propagated from the current Workflow to the Activity; and
 * - when should the Activity cancellation be reported to Workflow (i.e. at which moment should the
 *   Activity call's promise fail with an `ActivityFailure`, with `cause` set to a `CancelledFailure`).
 *
 * Note that this setting only applies to cancellation originating from cancellation being
 * externally requested on the Workflow itself, or from internal cancellation of the
 * `CancellationScope` in which the Activity call was made. Termination of a Workflow Execution
 * always results in cancellation of its outstanding Activity executions, regardless of those
 * Activities' {@link ActivityCancellationType} settings.
 *
 * @default ActivityCancellationType.WAIT_CANCELLATION_COMPLETED
 */
// MAINTENANCE: Keep this typedoc in sync with the `ActivityOptions.cancellationType` and
//              `LocalActivityOptions.cancellationType` fields later in this file.
exports.ActivityCancellationType = {
    /**
     * Do not propagate cancellation requests to the Activity, and immediately report cancellation
     * to the caller.
     */
    ABANDON: 'ABANDON',
    /**
     * Propagate cancellation request from the Workflow to the Activity, yet _immediately_ report
     * cancellation to the caller, i.e. without waiting for the server to confirm the cancellation
     * request.
     *
     * Note that this cancellation type provides no guarantee, from the Workflow-side, that the
     * cancellation request will actually be delivered to the Activity; e.g. the calling Workflow
     * may exit before the delivery is completed, or the Activity may complete (either successfully
     * or uncessfully) before the cancellation is delivered, resulting in a situation where the
     * workflow thinks the activity was cancelled, but the activity actually completed successfully.
     *
     * To ensure that the Workflow is properly informed of the Activity's final state (i.e. either
     * completion or cancellation), use {@link WAIT_CANCELLATION_COMPLETED}.
     */
    TRY_CANCEL: 'TRY_CANCEL',
    /**
     * Propagate cancellation request from the Workflow to the Activity, and wait for the activity
     * to complete its execution (either successfully, uncessfully, or as cancelled).
     *
     * Note that the Activity must heartbeat to receive a cancellation notification. This can block
     * the Workflow's cancellation for a long time if the Activity doesn't heartbeat or chooses to
     * ignore the cancellation request.
     */
    WAIT_CANCELLATION_COMPLETED: 'WAIT_CANCELLATION_COMPLETED',
};
_a = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.ActivityCancellationType.TRY_CANCEL]: 0,
    [exports.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED]: 1,
    [exports.ActivityCancellationType.ABANDON]: 2,
}, ''), exports.encodeActivityCancellationType = _a[0], exports.decodeActivityCancellationType = _a[1];


/***/ },

/***/ "./node_modules/@temporalio/common/lib/continue-as-new.js"
/*!****************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/continue-as-new.js ***!
  \****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var _a;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.decodeSuggestContinueAsNewReason = exports.encodeSuggestContinueAsNewReason = exports.SuggestContinueAsNewReason = void 0;
exports.suggestContinueAsNewReasonsFromProto = suggestContinueAsNewReasonsFromProto;
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
/**
 * Reason(s) why continue as new is suggested. Can potentially be multiple reasons.
 *
 * @experimental May be removed or changed in the future.
 */
exports.SuggestContinueAsNewReason = {
    HISTORY_SIZE_TOO_LARGE: 'HISTORY_SIZE_TOO_LARGE',
    TOO_MANY_HISTORY_EVENTS: 'TOO_MANY_HISTORY_EVENTS',
    TOO_MANY_UPDATES: 'TOO_MANY_UPDATES',
};
// ts-prune-ignore-next
_a = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.SuggestContinueAsNewReason.HISTORY_SIZE_TOO_LARGE]: 1,
    [exports.SuggestContinueAsNewReason.TOO_MANY_HISTORY_EVENTS]: 2,
    [exports.SuggestContinueAsNewReason.TOO_MANY_UPDATES]: 3,
    UNSPECIFIED: 0,
}, 'SUGGEST_CONTINUE_AS_NEW_REASON_'), exports.encodeSuggestContinueAsNewReason = _a[0], exports.decodeSuggestContinueAsNewReason = _a[1];
// ts-prune-ignore-next
function suggestContinueAsNewReasonsFromProto(reasons) {
    if (reasons == null) {
        return undefined;
    }
    const res = [];
    for (const r of reasons) {
        const decoded = (0, exports.decodeSuggestContinueAsNewReason)(r);
        if (decoded !== undefined) {
            res.push(decoded);
        }
    }
    if (res.length === 0) {
        return undefined;
    }
    return res;
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/converter/data-converter.js"
/*!*************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/converter/data-converter.js ***!
  \*************************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.defaultDataConverter = exports.defaultFailureConverter = void 0;
const failure_converter_1 = __webpack_require__(/*! ./failure-converter */ "./node_modules/@temporalio/common/lib/converter/failure-converter.js");
const payload_converter_1 = __webpack_require__(/*! ./payload-converter */ "./node_modules/@temporalio/common/lib/converter/payload-converter.js");
/**
 * The default {@link FailureConverter} used by the SDK.
 *
 * Error messages and stack traces are serialized as plain text.
 */
exports.defaultFailureConverter = new failure_converter_1.DefaultFailureConverter();
/**
 * A "loaded" data converter that uses the default set of failure and payload converters.
 */
exports.defaultDataConverter = {
    payloadConverter: payload_converter_1.defaultPayloadConverter,
    failureConverter: exports.defaultFailureConverter,
    payloadCodecs: [],
};


/***/ },

/***/ "./node_modules/@temporalio/common/lib/converter/extstore.js"
/*!*******************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/converter/extstore.js ***!
  \*******************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.ExternalStorage = exports.StorageDriverClaim = void 0;
const errors_1 = __webpack_require__(/*! ../errors */ "./node_modules/@temporalio/common/lib/errors.js");
/**
 * Reference returned from {@link StorageDriver.store}. `claimData` is an
 * opaque key/value map the driver uses to retrieve the payload later.
 *
 * @experimental
 */
class StorageDriverClaim {
    claimData;
    constructor(claimData) {
        this.claimData = claimData;
    }
}
exports.StorageDriverClaim = StorageDriverClaim;
// ============================================================================
// Configuration
// ============================================================================
/** Default {@link ExternalStorage.payloadSizeThreshold}: 256 KiB. */
const DEFAULT_PAYLOAD_SIZE_THRESHOLD = 256 * 1024;
/**
 * Configuration for external storage. Holds the registered drivers, an
 * optional selector, and the size threshold above which payloads are
 * eligible for offloading to external storage. A selector function is
 * required when more than one driver is registered.
 *
 * @experimental
 */
class ExternalStorage {
    drivers;
    /**
     * Selects the destination driver for each payload, or returns `null` to keep
     * the payload inline.
     */
    driverSelector;
    payloadSizeThreshold;
    driversByName;
    constructor({ drivers, driverSelector, payloadSizeThreshold = DEFAULT_PAYLOAD_SIZE_THRESHOLD, }) {
        if (!Array.isArray(drivers) || drivers.length === 0) {
            throw new errors_1.ValueError('ExternalStorage requires at least one driver');
        }
        if (typeof payloadSizeThreshold !== 'number' ||
            !Number.isFinite(payloadSizeThreshold) ||
            payloadSizeThreshold < 0) {
            throw new errors_1.ValueError(`ExternalStorage.payloadSizeThreshold must be a non-negative finite number, got ${String(payloadSizeThreshold)}`);
        }
        const driversByName = new Map();
        for (const driver of drivers) {
            if (typeof driver?.name !== 'string' || driver.name.length === 0) {
                throw new errors_1.ValueError("Storage driver 'name' must be a non-empty string");
            }
            if (driversByName.has(driver.name)) {
                throw new errors_1.ValueError(`Duplicate storage driver name: '${driver.name}'`);
            }
            driversByName.set(driver.name, driver);
        }
        if (driverSelector === undefined && driversByName.size > 1) {
            throw new errors_1.ValueError('ExternalStorage.driverSelector is required when more than one driver is registered');
        }
        this.drivers = [...drivers];
        this.driverSelector = driverSelector ?? (() => drivers[0]);
        this.payloadSizeThreshold = payloadSizeThreshold;
        this.driversByName = driversByName;
    }
    /** Look up a registered driver by name. Returns `null` if no driver with that name is registered. */
    getDriver(name) {
        return this.driversByName.get(name) ?? null;
    }
}
exports.ExternalStorage = ExternalStorage;


/***/ },

/***/ "./node_modules/@temporalio/common/lib/converter/failure-converter.js"
/*!****************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/converter/failure-converter.js ***!
  \****************************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || function (mod) {
    if (mod && mod.__esModule) return mod;
    var result = {};
    if (mod != null) for (var k in mod) if (k !== "default" && Object.prototype.hasOwnProperty.call(mod, k)) __createBinding(result, mod, k);
    __setModuleDefault(result, mod);
    return result;
};
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.DefaultFailureConverter = void 0;
exports.cutoffStackTrace = cutoffStackTrace;
const nexus = __importStar(__webpack_require__(/*! nexus-rpc */ "./node_modules/nexus-rpc/lib/index.js"));
const long_1 = __importDefault(__webpack_require__(/*! long */ "./node_modules/long/umd/index.js"));
const failure_1 = __webpack_require__(/*! ../failure */ "./node_modules/@temporalio/common/lib/failure.js");
const internal_workflow_1 = __webpack_require__(/*! ../internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
const type_helpers_1 = __webpack_require__(/*! ../type-helpers */ "./node_modules/@temporalio/common/lib/type-helpers.js");
const time_1 = __webpack_require__(/*! ../time */ "./node_modules/@temporalio/common/lib/time.js");
const encoding_1 = __webpack_require__(/*! ../encoding */ "./node_modules/@temporalio/common/lib/encoding.js");
const payload_converter_1 = __webpack_require__(/*! ./payload-converter */ "./node_modules/@temporalio/common/lib/converter/payload-converter.js");
// Can't import proto enums into the workflow sandbox, use this helper type and enum converter instead.
const NexusHandlerErrorRetryBehavior = {
    RETRYABLE: 'RETRYABLE',
    NON_RETRYABLE: 'NON_RETRYABLE',
};
const [encodeNexusHandlerErrorRetryBehavior, decodeNexusHandlerErrorRetryBehavior] = (0, internal_workflow_1.makeProtoEnumConverters)({
    UNSPECIFIED: 0,
    [NexusHandlerErrorRetryBehavior.RETRYABLE]: 1,
    [NexusHandlerErrorRetryBehavior.NON_RETRYABLE]: 2,
}, 'NEXUS_HANDLER_ERROR_RETRY_BEHAVIOR_');
function combineRegExp(...regexps) {
    return new RegExp(regexps.map((x) => `(?:${x.source})`).join('|'));
}
/**
 * Stack traces will be cutoff when on of these patterns is matched
 */
const CUTOFF_STACK_PATTERNS = combineRegExp(
/** Activity execution */
/\s+at (Activity\.)?execute \(.*[\\/]worker[\\/](?:src|lib)[\\/]activity\.[jt]s:\d+:\d+\)/, 
/** Nexus execution */
/\s+at( async)? (NexusHandler\.)?invokeUserCode \(.*[\\/]worker[\\/](?:src|lib)[\\/]nexus[\\/]index\.[jt]s:\d+:\d+\)/, 
/** Workflow activation (inbound handlers only) */
/\s+at( async)? (Activator\.)?(startWorkflow|queryWorkflow|signalWorkflow|update|validateUpdate)NextHandler \(.*\.[jt]s:\d+:\d+\)/, 
/** Workflow run anything in context */
/\s+at (Script\.)?runInContext \(native|unknown|(?:(?:node:vm|vm\.js):\d+:\d+)\)/);
/**
 * Any stack trace frames that match any of those wil be dopped.
 * The "null." prefix on some cases is to avoid https://github.com/nodejs/node/issues/42417
 */
const DROPPED_STACK_FRAMES_PATTERNS = combineRegExp(
/** Internal functions used to recursively chain interceptors */
/\s+at (null\.)?next \(.*[\\/]common[\\/](?:src|lib)[\\/]interceptors\.[jt]s:\d+:\d+\)/, 
/** Internal functions used to recursively chain interceptors */
/\s+at (null\.)?executeNextHandler \(.*[\\/]worker[\\/](?:src|lib)[\\/]activity\.[jt]s:\d+:\d+\)/);
/**
 * Cuts out the framework part of a stack trace, leaving only user code entries
 */
function cutoffStackTrace(stack) {
    const lines = (stack ?? '').split(/\r?\n/);
    const acc = Array();
    for (const line of lines) {
        if (CUTOFF_STACK_PATTERNS.test(line))
            break;
        if (!DROPPED_STACK_FRAMES_PATTERNS.test(line))
            acc.push(line);
    }
    return acc.join('\n');
}
/**
 * Default, cross-language-compatible Failure converter.
 *
 * By default, it will leave error messages and stack traces as plain text. In order to encrypt them, set
 * `encodeCommonAttributes` to `true` in the constructor options and use a {@link PayloadCodec} that can encrypt /
 * decrypt Payloads in your {@link WorkerOptions.dataConverter | Worker} and
 * {@link ClientOptions.dataConverter | Client options}.
 */
class DefaultFailureConverter {
    options;
    constructor(options) {
        const { encodeCommonAttributes } = options ?? {};
        this.options = {
            encodeCommonAttributes: encodeCommonAttributes ?? false,
        };
    }
    /**
     * Converts a Failure proto message to a JS Error object.
     *
     * Does not set common properties, that is done in {@link failureToError}.
     */
    failureToErrorInner(failure, payloadConverter, context) {
        if (failure.applicationFailureInfo) {
            return new failure_1.ApplicationFailure(failure.message ?? undefined, failure.applicationFailureInfo.type, Boolean(failure.applicationFailureInfo.nonRetryable), (0, payload_converter_1.arrayFromPayloads)(payloadConverter, failure.applicationFailureInfo.details?.payloads, context), this.optionalFailureToOptionalError(failure.cause, payloadConverter, context), undefined, (0, failure_1.decodeApplicationFailureCategory)(failure.applicationFailureInfo.category));
        }
        if (failure.serverFailureInfo) {
            return new failure_1.ServerFailure(failure.message ?? undefined, Boolean(failure.serverFailureInfo.nonRetryable), this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
        }
        if (failure.timeoutFailureInfo) {
            return new failure_1.TimeoutFailure(failure.message ?? undefined, (0, payload_converter_1.fromPayloadsAtIndex)(payloadConverter, 0, failure.timeoutFailureInfo.lastHeartbeatDetails?.payloads, context), (0, failure_1.decodeTimeoutType)(failure.timeoutFailureInfo.timeoutType));
        }
        if (failure.terminatedFailureInfo) {
            return new failure_1.TerminatedFailure(failure.message ?? undefined, this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
        }
        if (failure.canceledFailureInfo) {
            return new failure_1.CancelledFailure(failure.message ?? undefined, (0, payload_converter_1.arrayFromPayloads)(payloadConverter, failure.canceledFailureInfo.details?.payloads, context), this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
        }
        if (failure.resetWorkflowFailureInfo) {
            return new failure_1.ApplicationFailure(failure.message ?? undefined, 'ResetWorkflow', false, (0, payload_converter_1.arrayFromPayloads)(payloadConverter, failure.resetWorkflowFailureInfo.lastHeartbeatDetails?.payloads, context), this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
        }
        if (failure.childWorkflowExecutionFailureInfo) {
            const { namespace, workflowType, workflowExecution, retryState } = failure.childWorkflowExecutionFailureInfo;
            if (!(workflowType?.name && workflowExecution)) {
                throw new TypeError('Missing attributes on childWorkflowExecutionFailureInfo');
            }
            return new failure_1.ChildWorkflowFailure(namespace ?? undefined, workflowExecution, workflowType.name, (0, failure_1.decodeRetryState)(retryState), this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
        }
        if (failure.activityFailureInfo) {
            if (!failure.activityFailureInfo.activityType?.name) {
                throw new TypeError('Missing activityType?.name on activityFailureInfo');
            }
            return new failure_1.ActivityFailure(failure.message ?? undefined, failure.activityFailureInfo.activityType.name, failure.activityFailureInfo.activityId ?? undefined, (0, failure_1.decodeRetryState)(failure.activityFailureInfo.retryState), failure.activityFailureInfo.identity ?? undefined, this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
        }
        if (failure.nexusHandlerFailureInfo) {
            let retryableOverride = undefined;
            const retryBehavior = decodeNexusHandlerErrorRetryBehavior(failure.nexusHandlerFailureInfo.retryBehavior);
            switch (retryBehavior) {
                case 'RETRYABLE':
                    retryableOverride = true;
                    break;
                case 'NON_RETRYABLE':
                    retryableOverride = false;
                    break;
            }
            const rawErrorType = failure.nexusHandlerFailureInfo.type || '';
            const resolvedType = Object.hasOwn(nexus.HandlerErrorType, rawErrorType)
                ? nexus.HandlerErrorType[rawErrorType]
                : 'UNKNOWN';
            return new nexus.HandlerError(resolvedType, failure.message ?? 'Nexus handler error', {
                cause: this.optionalFailureToOptionalError(failure.cause, payloadConverter, context),
                retryableOverride,
                rawErrorType,
                originalFailure: this.temporalFailureToNexusFailure(failure),
            });
        }
        if (failure.nexusOperationExecutionFailureInfo) {
            return new failure_1.NexusOperationFailure(
            // TODO(nexus/error): Maybe set a default message here, once we've decided on error handling.
            failure.message ?? undefined, failure.nexusOperationExecutionFailureInfo.scheduledEventId?.toNumber(), 
            // We assume these will always be set or gracefully set to empty strings.
            failure.nexusOperationExecutionFailureInfo.endpoint ?? '', failure.nexusOperationExecutionFailureInfo.service ?? '', failure.nexusOperationExecutionFailureInfo.operation ?? '', failure.nexusOperationExecutionFailureInfo.operationToken ?? undefined, this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
        }
        return new failure_1.TemporalFailure(failure.message ?? undefined, this.optionalFailureToOptionalError(failure.cause, payloadConverter, context));
    }
    failureToError(failure, payloadConverter, context) {
        if (failure.encodedAttributes) {
            const attrs = payloadConverter.fromPayload(failure.encodedAttributes, context);
            // Don't apply encodedAttributes unless they conform to an expected schema
            if (typeof attrs === 'object' && attrs !== null) {
                const { message, stack_trace } = attrs;
                // Avoid mutating the argument
                failure = { ...failure };
                if (typeof message === 'string') {
                    failure.message = message;
                }
                if (typeof stack_trace === 'string') {
                    failure.stackTrace = stack_trace;
                }
            }
        }
        const err = this.failureToErrorInner(failure, payloadConverter, context);
        err.stack = failure.stackTrace ?? '';
        if (err instanceof failure_1.TemporalFailure) {
            err.failure = failure;
        }
        return err;
    }
    errorToFailure(err, payloadConverter, context) {
        const failure = this.errorToFailureInner(err, payloadConverter, context);
        if (this.options.encodeCommonAttributes) {
            const { message, stackTrace } = failure;
            failure.message = 'Encoded failure';
            failure.stackTrace = '';
            failure.encodedAttributes = payloadConverter.toPayload({ message, stack_trace: stackTrace }, context);
        }
        return failure;
    }
    errorToFailureInner(err, payloadConverter, context) {
        if (err instanceof failure_1.TemporalFailure || err instanceof nexus.HandlerError) {
            if (err instanceof failure_1.TemporalFailure && err.failure)
                return err.failure;
            const base = {
                message: err.message,
                stackTrace: cutoffStackTrace(err.stack),
                cause: this.optionalErrorToOptionalFailure(err.cause, payloadConverter, context),
                source: failure_1.FAILURE_SOURCE,
            };
            if (err instanceof failure_1.ActivityFailure) {
                return {
                    ...base,
                    activityFailureInfo: {
                        ...err,
                        retryState: (0, failure_1.encodeRetryState)(err.retryState),
                        activityType: { name: err.activityType },
                    },
                };
            }
            if (err instanceof failure_1.ChildWorkflowFailure) {
                return {
                    ...base,
                    childWorkflowExecutionFailureInfo: {
                        ...err,
                        retryState: (0, failure_1.encodeRetryState)(err.retryState),
                        workflowExecution: err.execution,
                        workflowType: { name: err.workflowType },
                    },
                };
            }
            if (err instanceof failure_1.ApplicationFailure) {
                return {
                    ...base,
                    applicationFailureInfo: {
                        type: err.type,
                        nonRetryable: err.nonRetryable,
                        details: err.details && err.details.length
                            ? { payloads: (0, payload_converter_1.toPayloadsWithContext)(payloadConverter, context, err.details) }
                            : undefined,
                        nextRetryDelay: (0, time_1.msOptionalToTs)(err.nextRetryDelay),
                        category: (0, failure_1.encodeApplicationFailureCategory)(err.category),
                    },
                };
            }
            if (err instanceof failure_1.CancelledFailure) {
                return {
                    ...base,
                    canceledFailureInfo: {
                        details: err.details && err.details.length
                            ? { payloads: (0, payload_converter_1.toPayloadsWithContext)(payloadConverter, context, err.details) }
                            : undefined,
                    },
                };
            }
            if (err instanceof failure_1.TimeoutFailure) {
                return {
                    ...base,
                    timeoutFailureInfo: {
                        timeoutType: (0, failure_1.encodeTimeoutType)(err.timeoutType),
                        lastHeartbeatDetails: err.lastHeartbeatDetails
                            ? { payloads: (0, payload_converter_1.toPayloadsWithContext)(payloadConverter, context, [err.lastHeartbeatDetails]) }
                            : undefined,
                    },
                };
            }
            if (err instanceof failure_1.ServerFailure) {
                return {
                    ...base,
                    serverFailureInfo: { nonRetryable: err.nonRetryable },
                };
            }
            if (err instanceof failure_1.TerminatedFailure) {
                return {
                    ...base,
                    terminatedFailureInfo: {},
                };
            }
            if (err instanceof nexus.HandlerError) {
                if (err.originalFailure) {
                    return this.nexusFailureToTemporalFailure(err.originalFailure, err.retryable);
                }
                else {
                    let retryBehavior = undefined;
                    switch (err.retryableOverride) {
                        case true:
                            retryBehavior = encodeNexusHandlerErrorRetryBehavior('RETRYABLE');
                            break;
                        case false:
                            retryBehavior = encodeNexusHandlerErrorRetryBehavior('NON_RETRYABLE');
                            break;
                    }
                    return {
                        ...base,
                        nexusHandlerFailureInfo: {
                            type: err.type,
                            retryBehavior,
                        },
                    };
                }
            }
            if (err instanceof failure_1.NexusOperationFailure) {
                return {
                    ...base,
                    nexusOperationExecutionFailureInfo: {
                        scheduledEventId: err.scheduledEventId ? long_1.default.fromNumber(err.scheduledEventId) : undefined,
                        endpoint: err.endpoint,
                        service: err.service,
                        operation: err.operation,
                        operationToken: err.operationToken,
                    },
                };
            }
            // Just a TemporalFailure
            return base;
        }
        const base = {
            source: failure_1.FAILURE_SOURCE,
        };
        if ((0, type_helpers_1.isError)(err)) {
            return {
                ...base,
                message: String(err.message ?? ''),
                stackTrace: cutoffStackTrace(err.stack),
                cause: this.optionalErrorToOptionalFailure(err.cause, payloadConverter, context),
            };
        }
        const recommendation = ` [A non-Error value was thrown from your code. We recommend throwing Error objects so that we can provide a stack trace]`;
        if (typeof err === 'string') {
            return { ...base, message: err + recommendation };
        }
        if (typeof err === 'object') {
            let message = '';
            try {
                message = JSON.stringify(err);
            }
            catch (_err) {
                message = String(err);
            }
            return { ...base, message: message + recommendation };
        }
        return { ...base, message: String(err) + recommendation };
    }
    /**
     * Converts a Failure proto message to a JS Error object if defined or returns undefined.
     */
    optionalFailureToOptionalError(failure, payloadConverter, context) {
        return failure ? this.failureToError(failure, payloadConverter, context) : undefined;
    }
    /**
     * Converts an error to a Failure proto message if defined or returns undefined
     */
    optionalErrorToOptionalFailure(err, payloadConverter, context) {
        return err ? this.errorToFailure(err, payloadConverter, context) : undefined;
    }
    nexusFailureToTemporalFailure(failure, retryable) {
        if (failure.metadata?.type === 'temporal.api.failure.v1.Failure') {
            if (failure.details == null) {
                throw new TypeError("missing details for Nexus Failure of type 'temporal.api.failure.v1.Failure'");
            }
            return failure.details;
        }
        else {
            const temporalFailure = {};
            temporalFailure.applicationFailureInfo = {
                type: 'NexusFailure',
                nonRetryable: !retryable,
                details: {
                    payloads: [
                        {
                            metadata: { encoding: (0, encoding_1.encode)('json/plain') },
                            data: (0, encoding_1.encode)(JSON.stringify({ ...failure, message: '' })),
                        },
                    ],
                },
            };
            temporalFailure.message = failure.message;
            temporalFailure.stackTrace = failure.stackTrace ?? '';
            return temporalFailure;
        }
    }
    temporalFailureToNexusFailure(failure) {
        return {
            message: failure.message ?? '',
            metadata: { type: 'temporal.api.failure.v1.Failure' },
            // Store the full ProtoFailure as the Nexus failure details so it can be round-tripped
            // losslessly back to a ProtoFailure via nexusFailureToTemporalFailure.
            details: { ...failure },
        };
    }
}
exports.DefaultFailureConverter = DefaultFailureConverter;


/***/ },

/***/ "./node_modules/@temporalio/common/lib/converter/payload-codec.js"
/*!************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/converter/payload-codec.js ***!
  \************************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));


/***/ },

/***/ "./node_modules/@temporalio/common/lib/converter/payload-converter.js"
/*!****************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/converter/payload-converter.js ***!
  \****************************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.defaultPayloadConverter = exports.DefaultPayloadConverter = exports.JsonPayloadConverter = exports.BinaryPayloadConverter = exports.UndefinedPayloadConverter = exports.CompositePayloadConverter = exports.rawValueTypeInfo = exports.RawValue = void 0;
exports.toPayloadWithTypeInfo = toPayloadWithTypeInfo;
exports.fromPayloadWithTypeInfo = fromPayloadWithTypeInfo;
exports.toPayloads = toPayloads;
exports.toPayloadsWithContext = toPayloadsWithContext;
exports.convertOptionalToPayload = convertOptionalToPayload;
exports.mapToPayloads = mapToPayloads;
exports.fromPayloadsAtIndex = fromPayloadsAtIndex;
exports.arrayFromPayloads = arrayFromPayloads;
exports.mapFromPayloads = mapFromPayloads;
const encoding_1 = __webpack_require__(/*! ../encoding */ "./node_modules/@temporalio/common/lib/encoding.js");
const errors_1 = __webpack_require__(/*! ../errors */ "./node_modules/@temporalio/common/lib/errors.js");
const types_1 = __webpack_require__(/*! ./types */ "./node_modules/@temporalio/common/lib/converter/types.js");
/**
 * Apply TypeInfo transfer conversion before converting a value to a Payload.
 *
 * @experimental
 */
function toPayloadWithTypeInfo(converter, value, context, typeInfo) {
    if (isRawValueTypeInfo(typeInfo)) {
        if (!(value instanceof RawValue)) {
            throw new errors_1.ValueError('RawValue TypeInfo requires a RawValue value');
        }
        return value.payload;
    }
    const transferValue = typeInfo?.transferTypeConverter ? typeInfo.transferTypeConverter.toTransferType(value) : value;
    return converter.toPayload(transferValue, context, typeInfo?.payloadConverterHint);
}
/**
 * Convert a Payload and then apply TypeInfo transfer conversion to the result.
 *
 * @experimental
 */
function fromPayloadWithTypeInfo(converter, payload, context, typeInfo) {
    if (isRawValueTypeInfo(typeInfo)) {
        // The private brand establishes T as RawValue, but this generic function cannot express that narrowing.
        return RawValue.fromPayload(payload);
    }
    const transferValue = converter.fromPayload(payload, context, typeInfo?.payloadConverterHint);
    return typeInfo?.transferTypeConverter
        ? typeInfo.transferTypeConverter.fromTransferType(transferValue)
        : transferValue;
}
/**
 * Implements conversion of a list of values.
 *
 * @param converter
 * @param values JS values to convert to Payloads
 * @return list of {@link Payload}s
 * @throws {@link ValueError} if conversion of the value passed as parameter failed for any
 *     reason.
 */
function toPayloads(converter, ...values) {
    return toPayloadsWithContext(converter, undefined, values);
}
/**
 * Implements conversion of a list of values with an optional serialization context.
 *
 * @hidden
 */
function toPayloadsWithContext(converter, context, values, typeInfo) {
    if (values.length === 0) {
        return undefined;
    }
    return values.map((value, index) => toPayloadWithTypeInfo(converter, value, context, typeInfo?.[index]));
}
/**
 * Run {@link PayloadConverter.toPayload} on an optional value, and then encode it.
 */
function convertOptionalToPayload(payloadConverter, value, context) {
    if (value == null)
        return value;
    return payloadConverter.toPayload(value, context);
}
/**
 * Run {@link PayloadConverter.toPayload} on each value in the map.
 *
 * @throws {@link ValueError} if conversion of any value in the map fails
 */
function mapToPayloads(converter, map, context) {
    return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, converter.toPayload(v, context)]));
}
/**
 * Implements conversion of an array of values of different types. Useful for deserializing
 * arguments of function invocations.
 *
 * @param converter
 * @param index index of the value in the payloads
 * @param payloads serialized value to convert to JS values.
 * @return converted JS value
 * @throws {@link PayloadConverterError} if conversion of the data passed as parameter failed for any
 *     reason.
 */
function fromPayloadsAtIndex(converter, index, payloads, context, typeInfo) {
    // To make adding arguments a backwards compatible change
    if (payloads === undefined || payloads === null || index >= payloads.length) {
        return undefined;
    }
    const payload = payloads?.[index];
    if (!payload) {
        return undefined;
    }
    return fromPayloadWithTypeInfo(converter, payload, context, typeInfo);
}
/**
 * Run {@link PayloadConverter.fromPayload} on each value in the array.
 */
function arrayFromPayloads(converter, payloads, context, typeInfo) {
    if (!payloads) {
        return [];
    }
    return payloads.map((payload, index) => fromPayloadWithTypeInfo(converter, payload, context, typeInfo?.[index]));
}
function mapFromPayloads(converter, map, context) {
    if (map == null)
        return undefined;
    return Object.fromEntries(Object.entries(map).map(([k, payload]) => {
        const value = converter.fromPayload(payload, context);
        return [k, value];
    }));
}
/**
 * RawValue is a wrapper over a payload.
 * A payload that belongs to a RawValue is special in that it bypasses user-defined payload converters,
 * instead using the default payload converter. The payload still undergoes codec conversion.
 */
class RawValue {
    _payload;
    [exports.rawPayloadTypeBrand] = undefined;
    constructor(value, payloadConverter = exports.defaultPayloadConverter, context) {
        this._payload = payloadConverter.toPayload(value, context);
    }
    static fromPayload(p) {
        return new RawValue(p, identityPayloadConverter);
    }
    get payload() {
        return this._payload;
    }
}
exports.RawValue = RawValue;
const rawValueTypeInfoBrand = Symbol('rawValueTypeInfo');
/**
 * Type information for preserving a {@link RawValue} across serialization boundaries.
 *
 * This bypasses the payload converter during encoding and decoding. Payload codecs are still applied.
 *
 * @experimental
 */
exports.rawValueTypeInfo = {
    [rawValueTypeInfoBrand]: true,
};
function isRawValueTypeInfo(typeInfo) {
    return typeInfo !== undefined && rawValueTypeInfoBrand in typeInfo && typeInfo[rawValueTypeInfoBrand] === true;
}
/**
 * Tries to convert values to {@link Payload}s using the {@link PayloadConverterWithEncoding}s provided to the constructor, in the order provided.
 *
 * Converts Payloads to values based on the `Payload.metadata.encoding` field, which matches the {@link PayloadConverterWithEncoding.encodingType}
 * of the converter that created the Payload.
 */
class CompositePayloadConverter {
    converters;
    converterByEncoding = new Map();
    constructor(...converters) {
        if (converters.length === 0) {
            throw new errors_1.PayloadConverterError('Must provide at least one PayloadConverterWithEncoding');
        }
        this.converters = converters;
        for (const converter of converters) {
            this.converterByEncoding.set(converter.encodingType, converter);
        }
    }
    /**
     * Tries to run `.toPayload(value)` on each converter in the order provided at construction.
     * Returns the first successful result, throws {@link ValueError} if there is no converter that can handle the value.
     */
    toPayload(value, context, hint) {
        if (value instanceof RawValue) {
            // TypeInfo-aware calls bypass payload conversion in toPayloadWithTypeInfo. Keep this fallback for direct and
            // legacy untyped calls; removing it would silently re-encode RawValue and may change Workflow replay payloads.
            return value.payload;
        }
        for (const converter of this.converters) {
            if (hint !== undefined && !converter.validateConverterHint?.(hint)) {
                continue;
            }
            const result = converter.toPayload(value, context, hint);
            if (result !== undefined) {
                return result;
            }
        }
        if (hint !== undefined) {
            throw new errors_1.ValueError(`No payload converter supports converter hint '${hint.converter}'`);
        }
        throw new errors_1.ValueError(`Unable to convert ${value} to payload`);
    }
    /**
     * Run {@link PayloadConverterWithEncoding.fromPayload} based on the `encoding` metadata of the {@link Payload}.
     */
    fromPayload(payload, context, hint) {
        if (payload.metadata === undefined || payload.metadata === null) {
            throw new errors_1.ValueError('Missing payload metadata');
        }
        const encoding = (0, encoding_1.decode)(payload.metadata[types_1.METADATA_ENCODING_KEY]);
        const converter = this.converterByEncoding.get(encoding);
        if (converter === undefined) {
            throw new errors_1.ValueError(`Unknown encoding: ${encoding}`);
        }
        if (hint !== undefined && !converter.validateConverterHint?.(hint)) {
            throw new errors_1.PayloadConverterError(`Payload encoding '${encoding}' does not support converter hint '${hint.converter}'`);
        }
        return converter.fromPayload(payload, context, hint);
    }
}
exports.CompositePayloadConverter = CompositePayloadConverter;
/**
 * Converts between JS undefined and NULL Payload
 */
class UndefinedPayloadConverter {
    encodingType = types_1.encodingTypes.METADATA_ENCODING_NULL;
    toPayload(value) {
        if (value !== undefined) {
            return undefined;
        }
        return {
            metadata: {
                [types_1.METADATA_ENCODING_KEY]: types_1.encodingKeys.METADATA_ENCODING_NULL,
            },
        };
    }
    fromPayload(_content) {
        return undefined; // Just return undefined
    }
}
exports.UndefinedPayloadConverter = UndefinedPayloadConverter;
/**
 * Converts between binary data types and RAW Payload
 */
class BinaryPayloadConverter {
    encodingType = types_1.encodingTypes.METADATA_ENCODING_RAW;
    toPayload(value) {
        if (!(value instanceof Uint8Array)) {
            return undefined;
        }
        return {
            metadata: {
                [types_1.METADATA_ENCODING_KEY]: types_1.encodingKeys.METADATA_ENCODING_RAW,
            },
            data: value,
        };
    }
    fromPayload(content) {
        return (
        // Wrap with Uint8Array from this context to ensure `instanceof` works
        (content.data ? new Uint8Array(content.data.buffer, content.data.byteOffset, content.data.length) : content.data));
    }
}
exports.BinaryPayloadConverter = BinaryPayloadConverter;
/**
 * Converts between non-undefined values and serialized JSON Payload
 */
class JsonPayloadConverter {
    encodingType = types_1.encodingTypes.METADATA_ENCODING_JSON;
    toPayload(value) {
        if (value === undefined) {
            return undefined;
        }
        let json;
        try {
            json = JSON.stringify(value);
        }
        catch (_err) {
            return undefined;
        }
        return {
            metadata: {
                [types_1.METADATA_ENCODING_KEY]: types_1.encodingKeys.METADATA_ENCODING_JSON,
            },
            data: (0, encoding_1.encode)(json),
        };
    }
    fromPayload(content) {
        if (content.data === undefined || content.data === null) {
            throw new errors_1.ValueError('Got payload with no data');
        }
        return JSON.parse((0, encoding_1.decode)(content.data));
    }
}
exports.JsonPayloadConverter = JsonPayloadConverter;
class DefaultPayloadConverter extends CompositePayloadConverter {
    // Match the order used in other SDKs, with the exception of the Protobuf converter, which is
    // excluded by default to avoid the significant bundle size increase it introduces.
    //
    // To use `protobufjs` for Payload conversion, use {@link DefaultPayloadConverterWithProtobufs}.
    //
    // Go SDK:
    // https://github.com/temporalio/sdk-go/blob/5e5645f0c550dcf717c095ae32c76a7087d2e985/converter/default_data_converter.go#L28
    constructor() {
        super(new UndefinedPayloadConverter(), new BinaryPayloadConverter(), new JsonPayloadConverter());
    }
}
exports.DefaultPayloadConverter = DefaultPayloadConverter;
/**
 * The default {@link PayloadConverter} used by the SDK. Supports `Uint8Array` and JSON serializables (so if
 * {@link https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/JSON/stringify#description | `JSON.stringify(yourArgOrRetval)`}
 * works, the default payload converter will work).
 *
 * To also support Protobufs, create a custom payload converter with {@link DefaultPayloadConverter}:
 *
 * `const myConverter = new DefaultPayloadConverter({ protobufRoot })`
 */
exports.defaultPayloadConverter = new DefaultPayloadConverter();
/**
 * The identity payload converter returns the inputs it was given.
 */
class IdentityPayloadConverter {
    toPayload(value) {
        return value;
    }
    fromPayload(payload) {
        return payload;
    }
}
const identityPayloadConverter = new IdentityPayloadConverter();


/***/ },

/***/ "./node_modules/@temporalio/common/lib/converter/payload-search-attributes.js"
/*!************************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/converter/payload-search-attributes.js ***!
  \************************************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.typedSearchAttributePayloadConverter = exports.TypedSearchAttributePayloadConverter = exports.searchAttributePayloadConverter = exports.SearchAttributePayloadConverter = void 0;
exports.encodeUnifiedSearchAttributes = encodeUnifiedSearchAttributes;
exports.decodeSearchAttributes = decodeSearchAttributes;
exports.decodeTypedSearchAttributes = decodeTypedSearchAttributes;
const encoding_1 = __webpack_require__(/*! ../encoding */ "./node_modules/@temporalio/common/lib/encoding.js");
const errors_1 = __webpack_require__(/*! ../errors */ "./node_modules/@temporalio/common/lib/errors.js");
const search_attributes_1 = __webpack_require__(/*! ../search-attributes */ "./node_modules/@temporalio/common/lib/search-attributes.js");
const payload_converter_1 = __webpack_require__(/*! ./payload-converter */ "./node_modules/@temporalio/common/lib/converter/payload-converter.js");
/**
 * Converts Search Attribute values using JsonPayloadConverter
 */
class SearchAttributePayloadConverter {
    jsonConverter = new payload_converter_1.JsonPayloadConverter();
    validNonDateTypes = ['string', 'number', 'boolean'];
    toPayload(values) {
        if (!Array.isArray(values)) {
            throw new errors_1.ValueError(`SearchAttribute value must be an array`);
        }
        if (values.length > 0) {
            const firstValue = values[0];
            const firstType = typeof firstValue;
            if (firstType === 'object') {
                for (const [idx, value] of values.entries()) {
                    if (!(value instanceof Date)) {
                        throw new errors_1.ValueError(`SearchAttribute values must arrays of strings, numbers, booleans, or Dates. The value ${value} at index ${idx} is of type ${typeof value}`);
                    }
                }
            }
            else {
                if (!this.validNonDateTypes.includes(firstType)) {
                    throw new errors_1.ValueError(`SearchAttribute array values must be: string | number | boolean | Date`);
                }
                for (const [idx, value] of values.entries()) {
                    if (typeof value !== firstType) {
                        throw new errors_1.ValueError(`All SearchAttribute array values must be of the same type. The first value ${firstValue} of type ${firstType} doesn't match value ${value} of type ${typeof value} at index ${idx}`);
                    }
                }
            }
        }
        // JSON.stringify takes care of converting Dates to ISO strings
        const ret = this.jsonConverter.toPayload(values);
        if (ret === undefined) {
            throw new errors_1.ValueError('Could not convert search attributes to payloads');
        }
        return ret;
    }
    /**
     * Datetime Search Attribute values are converted to `Date`s
     */
    fromPayload(payload) {
        if (payload.metadata == null) {
            throw new errors_1.ValueError('Missing payload metadata');
        }
        const value = this.jsonConverter.fromPayload(payload);
        let arrayWrappedValue = Array.isArray(value) ? value : [value];
        const searchAttributeType = payload.metadata.type ? (0, encoding_1.decode)(payload.metadata.type) : undefined;
        if (searchAttributeType === 'Datetime') {
            arrayWrappedValue = arrayWrappedValue.map((dateString) => new Date(dateString));
        }
        return arrayWrappedValue;
    }
}
exports.SearchAttributePayloadConverter = SearchAttributePayloadConverter;
exports.searchAttributePayloadConverter = new SearchAttributePayloadConverter();
class TypedSearchAttributePayloadConverter {
    jsonConverter = new payload_converter_1.JsonPayloadConverter();
    toPayload(attr) {
        if (!(attr instanceof search_attributes_1.TypedSearchAttributeValue || attr instanceof search_attributes_1.TypedSearchAttributeUpdateValue)) {
            throw new errors_1.ValueError(`Expect input to be instance of TypedSearchAttributeValue or TypedSearchAttributeUpdateValue, got: ${JSON.stringify(attr)}`);
        }
        // We check for deletion as well as regular typed search attributes.
        if (attr.value !== null && !(0, search_attributes_1.isValidValueForType)(attr.type, attr.value)) {
            throw new errors_1.ValueError(`Invalid search attribute value ${attr.value} for given type ${attr.type}`);
        }
        // For server search attributes to work properly, we cannot set the metadata
        // type when we set null
        if (attr.value === null) {
            const payload = this.jsonConverter.toPayload(attr.value);
            if (payload === undefined) {
                throw new errors_1.ValueError('Could not convert typed search attribute to payload');
            }
            return payload;
        }
        // JSON.stringify takes care of converting Dates to ISO strings
        const payload = this.jsonConverter.toPayload(attr.value);
        if (payload === undefined) {
            throw new errors_1.ValueError('Could not convert typed search attribute to payload');
        }
        // Note: this shouldn't be the case but the compiler complains without this check.
        if (payload.metadata == null) {
            throw new errors_1.ValueError('Missing payload metadata');
        }
        // Add encoded type of search attribute to metatdata
        payload.metadata['type'] = (0, encoding_1.encode)(search_attributes_1.TypedSearchAttributes.toMetadataType(attr.type));
        return payload;
    }
    // Note: type casting undefined values is not clear to caller.
    // We can't change the typing of the method to return undefined, it's not allowed by the interface.
    fromPayload(payload) {
        if (payload.metadata == null) {
            throw new errors_1.ValueError('Missing payload metadata');
        }
        // If no 'type' metadata field or no given value, we skip.
        if (payload.metadata.type == null) {
            return undefined;
        }
        const type = search_attributes_1.TypedSearchAttributes.toSearchAttributeType((0, encoding_1.decode)(payload.metadata.type));
        // Unrecognized metadata type (sanity check).
        if (type === undefined) {
            return undefined;
        }
        let value = this.jsonConverter.fromPayload(payload);
        // Handle legacy values without KEYWORD_LIST type.
        if (type !== search_attributes_1.SearchAttributeType.KEYWORD_LIST && Array.isArray(value)) {
            // Cannot have an array with multiple values for non-KEYWORD_LIST type.
            if (value.length > 1) {
                return undefined;
            }
            // Unpack single value array.
            value = value[0];
        }
        if (type === search_attributes_1.SearchAttributeType.DATETIME && value) {
            value = new Date(value);
        }
        // Check if the value is a valid for the given type. If not, skip.
        if (!(0, search_attributes_1.isValidValueForType)(type, value)) {
            return undefined;
        }
        return new search_attributes_1.TypedSearchAttributeValue(type, value);
    }
}
exports.TypedSearchAttributePayloadConverter = TypedSearchAttributePayloadConverter;
exports.typedSearchAttributePayloadConverter = new TypedSearchAttributePayloadConverter();
// If both params are provided, conflicting keys will be overwritten by typedSearchAttributes.
function encodeUnifiedSearchAttributes(searchAttributes, typedSearchAttributes) {
    return {
        ...(searchAttributes ? (0, payload_converter_1.mapToPayloads)(exports.searchAttributePayloadConverter, searchAttributes) : {}),
        ...(typedSearchAttributes
            ? (0, payload_converter_1.mapToPayloads)(exports.typedSearchAttributePayloadConverter, Object.fromEntries((Array.isArray(typedSearchAttributes) ? typedSearchAttributes : typedSearchAttributes.getAll()).map((pair) => {
                return [pair.key.name, new search_attributes_1.TypedSearchAttributeUpdateValue(pair.key.type, pair.value)];
            })))
            : {}),
    };
}
function decodeSearchAttributes(indexedFields) {
    if (!indexedFields)
        return {};
    return Object.fromEntries(Object.entries((0, payload_converter_1.mapFromPayloads)(exports.searchAttributePayloadConverter, indexedFields)).filter(([_, v]) => v && v.length > 0) // Filter out empty arrays returned by pre 1.18 servers
    );
}
function decodeTypedSearchAttributes(indexedFields) {
    return new search_attributes_1.TypedSearchAttributes(Object.entries((0, payload_converter_1.mapFromPayloads)(exports.typedSearchAttributePayloadConverter, indexedFields) ?? {}).reduce((acc, [k, attr]) => {
        // Filter out undefined values from converter.
        if (!attr) {
            return acc;
        }
        const key = { name: k, type: attr.type };
        // Ensure is valid pair.
        if ((0, search_attributes_1.isValidValueForType)(key.type, attr.value)) {
            acc.push({ key, value: attr.value });
        }
        return acc;
    }, []));
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/converter/types.js"
/*!****************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/converter/types.js ***!
  \****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.METADATA_MESSAGE_TYPE_KEY = exports.encodingKeys = exports.encodingTypes = exports.METADATA_ENCODING_KEY = void 0;
const encoding_1 = __webpack_require__(/*! ../encoding */ "./node_modules/@temporalio/common/lib/encoding.js");
exports.METADATA_ENCODING_KEY = 'encoding';
exports.encodingTypes = {
    METADATA_ENCODING_NULL: 'binary/null',
    METADATA_ENCODING_RAW: 'binary/plain',
    METADATA_ENCODING_JSON: 'json/plain',
    METADATA_ENCODING_PROTOBUF_JSON: 'json/protobuf',
    METADATA_ENCODING_PROTOBUF: 'binary/protobuf',
};
exports.encodingKeys = {
    METADATA_ENCODING_NULL: (0, encoding_1.encode)(exports.encodingTypes.METADATA_ENCODING_NULL),
    METADATA_ENCODING_RAW: (0, encoding_1.encode)(exports.encodingTypes.METADATA_ENCODING_RAW),
    METADATA_ENCODING_JSON: (0, encoding_1.encode)(exports.encodingTypes.METADATA_ENCODING_JSON),
    METADATA_ENCODING_PROTOBUF_JSON: (0, encoding_1.encode)(exports.encodingTypes.METADATA_ENCODING_PROTOBUF_JSON),
    METADATA_ENCODING_PROTOBUF: (0, encoding_1.encode)(exports.encodingTypes.METADATA_ENCODING_PROTOBUF),
};
exports.METADATA_MESSAGE_TYPE_KEY = 'messageType';


/***/ },

/***/ "./node_modules/@temporalio/common/lib/deprecated-time.js"
/*!****************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/deprecated-time.js ***!
  \****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || function (mod) {
    if (mod && mod.__esModule) return mod;
    var result = {};
    if (mod != null) for (var k in mod) if (k !== "default" && Object.prototype.hasOwnProperty.call(mod, k)) __createBinding(result, mod, k);
    __setModuleDefault(result, mod);
    return result;
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.optionalTsToMs = optionalTsToMs;
exports.tsToMs = tsToMs;
exports.msNumberToTs = msNumberToTs;
exports.msToTs = msToTs;
exports.msOptionalToTs = msOptionalToTs;
exports.msOptionalToNumber = msOptionalToNumber;
exports.msToNumber = msToNumber;
exports.tsToDate = tsToDate;
exports.optionalTsToDate = optionalTsToDate;
const time = __importStar(__webpack_require__(/*! ./time */ "./node_modules/@temporalio/common/lib/time.js"));
/**
 * Lossy conversion function from Timestamp to number due to possible overflow.
 * If ts is null or undefined returns undefined.
 *
 * @hidden
 * @deprecated - meant for internal use only
 */
function optionalTsToMs(ts) {
    return time.optionalTsToMs(ts);
}
/**
 * Lossy conversion function from Timestamp to number due to possible overflow
 *
 * @hidden
 * @deprecated - meant for internal use only
 * @deprecated - meant for internal use only
 */
function tsToMs(ts) {
    return time.tsToMs(ts);
}
/**
 * @hidden
 * @deprecated - meant for internal use only
 */
function msNumberToTs(millis) {
    return time.msNumberToTs(millis);
}
/**
 * @hidden
 * @deprecated - meant for internal use only
 */
function msToTs(str) {
    return time.msToTs(str);
}
/**
 * @hidden
 * @deprecated - meant for internal use only
 */
function msOptionalToTs(str) {
    return time.msOptionalToTs(str);
}
/**
 * @hidden
 * @deprecated - meant for internal use only
 */
function msOptionalToNumber(val) {
    return time.msOptionalToNumber(val);
}
/**
 * @hidden
 * @deprecated - meant for internal use only
 */
function msToNumber(val) {
    return time.msToNumber(val);
}
/**
 * @hidden
 * @deprecated - meant for internal use only
 */
function tsToDate(ts) {
    return time.tsToDate(ts);
}
/**
 * @hidden
 * @deprecated - meant for internal use only
 */
function optionalTsToDate(ts) {
    return time.optionalTsToDate(ts);
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/encoding.js"
/*!*********************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/encoding.js ***!
  \*********************************************************/
(__unused_webpack_module, exports) {

"use strict";

// Pasted with modifications from: https://raw.githubusercontent.com/anonyco/FastestSmallestTextEncoderDecoder/master/EncoderDecoderTogether.src.js
/* eslint no-fallthrough: 0 */
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.TextEncoder = exports.TextDecoder = void 0;
exports.encode = encode;
exports.decode = decode;
const fromCharCode = String.fromCharCode;
const encoderRegexp = /[\x80-\uD7ff\uDC00-\uFFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF]?/g;
const tmpBufferU16 = new Uint16Array(32);
class TextDecoder {
    decode(inputArrayOrBuffer) {
        const inputAs8 = inputArrayOrBuffer instanceof Uint8Array ? inputArrayOrBuffer : new Uint8Array(inputArrayOrBuffer);
        let resultingString = '', tmpStr = '', index = 0, nextEnd = 0, cp0 = 0, codePoint = 0, minBits = 0, cp1 = 0, pos = 0, tmp = -1;
        const len = inputAs8.length | 0;
        const lenMinus32 = (len - 32) | 0;
        // Note that tmp represents the 2nd half of a surrogate pair incase a surrogate gets divided between blocks
        for (; index < len;) {
            nextEnd = index <= lenMinus32 ? 32 : (len - index) | 0;
            for (; pos < nextEnd; index = (index + 1) | 0, pos = (pos + 1) | 0) {
                // @ts-expect-error ignoring unchecked index
                cp0 = inputAs8[index] & 0xff;
                switch (cp0 >> 4) {
                    case 15:
                        // @ts-expect-error ignoring unchecked index
                        cp1 = inputAs8[(index = (index + 1) | 0)] & 0xff;
                        if (cp1 >> 6 !== 0b10 || 0b11110111 < cp0) {
                            index = (index - 1) | 0;
                            break;
                        }
                        codePoint = ((cp0 & 0b111) << 6) | (cp1 & 0b00111111);
                        minBits = 5; // 20 ensures it never passes -> all invalid replacements
                        cp0 = 0x100; //  keep track of th bit size
                    case 14:
                        // @ts-expect-error ignoring unchecked index
                        cp1 = inputAs8[(index = (index + 1) | 0)] & 0xff;
                        codePoint <<= 6;
                        codePoint |= ((cp0 & 0b1111) << 6) | (cp1 & 0b00111111);
                        minBits = cp1 >> 6 === 0b10 ? (minBits + 4) | 0 : 24; // 24 ensures it never passes -> all invalid replacements
                        cp0 = (cp0 + 0x100) & 0x300; // keep track of th bit size
                    case 13:
                    case 12:
                        // @ts-expect-error ignoring unchecked index
                        cp1 = inputAs8[(index = (index + 1) | 0)] & 0xff;
                        codePoint <<= 6;
                        codePoint |= ((cp0 & 0b11111) << 6) | (cp1 & 0b00111111);
                        minBits = (minBits + 7) | 0;
                        // Now, process the code point
                        if (index < len && cp1 >> 6 === 0b10 && codePoint >> minBits && codePoint < 0x110000) {
                            cp0 = codePoint;
                            codePoint = (codePoint - 0x10000) | 0;
                            if (0 <= codePoint /*0xffff < codePoint*/) {
                                // BMP code point
                                //nextEnd = nextEnd - 1|0;
                                tmp = ((codePoint >> 10) + 0xd800) | 0; // highSurrogate
                                cp0 = ((codePoint & 0x3ff) + 0xdc00) | 0; // lowSurrogate (will be inserted later in the switch-statement)
                                if (pos < 31) {
                                    // notice 31 instead of 32
                                    tmpBufferU16[pos] = tmp;
                                    pos = (pos + 1) | 0;
                                    tmp = -1;
                                }
                                else {
                                    // else, we are at the end of the inputAs8 and let tmp0 be filled in later on
                                    // NOTE that cp1 is being used as a temporary variable for the swapping of tmp with cp0
                                    cp1 = tmp;
                                    tmp = cp0;
                                    cp0 = cp1;
                                }
                            }
                            else
                                nextEnd = (nextEnd + 1) | 0; // because we are advancing i without advancing pos
                        }
                        else {
                            // invalid code point means replacing the whole thing with null replacement characters
                            cp0 >>= 8;
                            index = (index - cp0 - 1) | 0; // reset index  back to what it was before
                            cp0 = 0xfffd;
                        }
                        // Finally, reset the variables for the next go-around
                        minBits = 0;
                        codePoint = 0;
                        nextEnd = index <= lenMinus32 ? 32 : (len - index) | 0;
                    /*case 11:
                  case 10:
                  case 9:
                  case 8:
                    codePoint ? codePoint = 0 : cp0 = 0xfffd; // fill with invalid replacement character
                  case 7:
                  case 6:
                  case 5:
                  case 4:
                  case 3:
                  case 2:
                  case 1:
                  case 0:
                    tmpBufferU16[pos] = cp0;
                    continue;*/
                    default: // fill with invalid replacement character
                        tmpBufferU16[pos] = cp0;
                        continue;
                    case 11:
                    case 10:
                    case 9:
                    case 8:
                }
                tmpBufferU16[pos] = 0xfffd; // fill with invalid replacement character
            }
            tmpStr += fromCharCode(
            // @ts-expect-error ignoring unchecked index
            tmpBufferU16[0], tmpBufferU16[1], tmpBufferU16[2], tmpBufferU16[3], tmpBufferU16[4], tmpBufferU16[5], tmpBufferU16[6], tmpBufferU16[7], tmpBufferU16[8], tmpBufferU16[9], tmpBufferU16[10], tmpBufferU16[11], tmpBufferU16[12], tmpBufferU16[13], tmpBufferU16[14], tmpBufferU16[15], tmpBufferU16[16], tmpBufferU16[17], tmpBufferU16[18], tmpBufferU16[19], tmpBufferU16[20], tmpBufferU16[21], tmpBufferU16[22], tmpBufferU16[23], tmpBufferU16[24], tmpBufferU16[25], tmpBufferU16[26], tmpBufferU16[27], tmpBufferU16[28], tmpBufferU16[29], tmpBufferU16[30], tmpBufferU16[31]);
            if (pos < 32)
                tmpStr = tmpStr.slice(0, (pos - 32) | 0); //-(32-pos));
            if (index < len) {
                //fromCharCode.apply(0, tmpBufferU16 : Uint8Array ?  tmpBufferU16.subarray(0,pos) : tmpBufferU16.slice(0,pos));
                tmpBufferU16[0] = tmp;
                pos = ~tmp >>> 31; //tmp !== -1 ? 1 : 0;
                tmp = -1;
                if (tmpStr.length < resultingString.length)
                    continue;
            }
            else if (tmp !== -1) {
                tmpStr += fromCharCode(tmp);
            }
            resultingString += tmpStr;
            tmpStr = '';
        }
        return resultingString;
    }
}
exports.TextDecoder = TextDecoder;
//////////////////////////////////////////////////////////////////////////////////////
function encoderReplacer(nonAsciiChars) {
    // make the UTF string into a binary UTF-8 encoded string
    let point = nonAsciiChars.charCodeAt(0) | 0;
    if (0xd800 <= point) {
        if (point <= 0xdbff) {
            const nextcode = nonAsciiChars.charCodeAt(1) | 0; // defaults to 0 when NaN, causing null replacement character
            if (0xdc00 <= nextcode && nextcode <= 0xdfff) {
                //point = ((point - 0xD800)<<10) + nextcode - 0xDC00 + 0x10000|0;
                point = ((point << 10) + nextcode - 0x35fdc00) | 0;
                if (point > 0xffff)
                    return fromCharCode((0x1e /*0b11110*/ << 3) | (point >> 18), (0x2 /*0b10*/ << 6) | ((point >> 12) & 0x3f) /*0b00111111*/, (0x2 /*0b10*/ << 6) | ((point >> 6) & 0x3f) /*0b00111111*/, (0x2 /*0b10*/ << 6) | (point & 0x3f) /*0b00111111*/);
            }
            else
                point = 65533 /*0b1111111111111101*/; //return '\xEF\xBF\xBD';//fromCharCode(0xef, 0xbf, 0xbd);
        }
        else if (point <= 0xdfff) {
            point = 65533 /*0b1111111111111101*/; //return '\xEF\xBF\xBD';//fromCharCode(0xef, 0xbf, 0xbd);
        }
    }
    /*if (point <= 0x007f) return nonAsciiChars;
    else */ if (point <= 0x07ff) {
        return fromCharCode((0x6 << 5) | (point >> 6), (0x2 << 6) | (point & 0x3f));
    }
    else
        return fromCharCode((0xe /*0b1110*/ << 4) | (point >> 12), (0x2 /*0b10*/ << 6) | ((point >> 6) & 0x3f) /*0b00111111*/, (0x2 /*0b10*/ << 6) | (point & 0x3f) /*0b00111111*/);
}
class TextEncoder {
    encode(inputString) {
        // 0xc0 => 0b11000000; 0xff => 0b11111111; 0xc0-0xff => 0b11xxxxxx
        // 0x80 => 0b10000000; 0xbf => 0b10111111; 0x80-0xbf => 0b10xxxxxx
        const encodedString = inputString === void 0 ? '' : '' + inputString, len = encodedString.length | 0;
        let result = new Uint8Array(((len << 1) + 8) | 0);
        let tmpResult;
        let i = 0, pos = 0, point = 0, nextcode = 0;
        let upgradededArraySize = !Uint8Array; // normal arrays are auto-expanding
        for (i = 0; i < len; i = (i + 1) | 0, pos = (pos + 1) | 0) {
            point = encodedString.charCodeAt(i) | 0;
            if (point <= 0x007f) {
                result[pos] = point;
            }
            else if (point <= 0x07ff) {
                result[pos] = (0x6 << 5) | (point >> 6);
                result[(pos = (pos + 1) | 0)] = (0x2 << 6) | (point & 0x3f);
            }
            else {
                widenCheck: {
                    if (0xd800 <= point) {
                        if (point <= 0xdbff) {
                            nextcode = encodedString.charCodeAt((i = (i + 1) | 0)) | 0; // defaults to 0 when NaN, causing null replacement character
                            if (0xdc00 <= nextcode && nextcode <= 0xdfff) {
                                //point = ((point - 0xD800)<<10) + nextcode - 0xDC00 + 0x10000|0;
                                point = ((point << 10) + nextcode - 0x35fdc00) | 0;
                                if (point > 0xffff) {
                                    result[pos] = (0x1e /*0b11110*/ << 3) | (point >> 18);
                                    result[(pos = (pos + 1) | 0)] = (0x2 /*0b10*/ << 6) | ((point >> 12) & 0x3f) /*0b00111111*/;
                                    result[(pos = (pos + 1) | 0)] = (0x2 /*0b10*/ << 6) | ((point >> 6) & 0x3f) /*0b00111111*/;
                                    result[(pos = (pos + 1) | 0)] = (0x2 /*0b10*/ << 6) | (point & 0x3f) /*0b00111111*/;
                                    continue;
                                }
                                break widenCheck;
                            }
                            point = 65533 /*0b1111111111111101*/; //return '\xEF\xBF\xBD';//fromCharCode(0xef, 0xbf, 0xbd);
                        }
                        else if (point <= 0xdfff) {
                            point = 65533 /*0b1111111111111101*/; //return '\xEF\xBF\xBD';//fromCharCode(0xef, 0xbf, 0xbd);
                        }
                    }
                    if (!upgradededArraySize && i << 1 < pos && i << 1 < ((pos - 7) | 0)) {
                        upgradededArraySize = true;
                        tmpResult = new Uint8Array(len * 3);
                        tmpResult.set(result);
                        result = tmpResult;
                    }
                }
                result[pos] = (0xe /*0b1110*/ << 4) | (point >> 12);
                result[(pos = (pos + 1) | 0)] = (0x2 /*0b10*/ << 6) | ((point >> 6) & 0x3f) /*0b00111111*/;
                result[(pos = (pos + 1) | 0)] = (0x2 /*0b10*/ << 6) | (point & 0x3f) /*0b00111111*/;
            }
        }
        return Uint8Array ? result.subarray(0, pos) : result.slice(0, pos);
    }
    encodeInto(inputString, u8Arr) {
        const encodedString = inputString === void 0 ? '' : ('' + inputString).replace(encoderRegexp, encoderReplacer);
        let len = encodedString.length | 0, i = 0, char = 0, read = 0;
        const u8ArrLen = u8Arr.length | 0;
        const inputLength = inputString.length | 0;
        if (u8ArrLen < len)
            len = u8ArrLen;
        putChars: {
            for (; i < len; i = (i + 1) | 0) {
                char = encodedString.charCodeAt(i) | 0;
                switch (char >> 4) {
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                    case 4:
                    case 5:
                    case 6:
                    case 7:
                        read = (read + 1) | 0;
                    // extension points:
                    case 8:
                    case 9:
                    case 10:
                    case 11:
                        break;
                    case 12:
                    case 13:
                        if (((i + 1) | 0) < u8ArrLen) {
                            read = (read + 1) | 0;
                            break;
                        }
                    case 14:
                        if (((i + 2) | 0) < u8ArrLen) {
                            //if (!(char === 0xEF && encodedString.substr(i+1|0,2) === "\xBF\xBD"))
                            read = (read + 1) | 0;
                            break;
                        }
                    case 15:
                        if (((i + 3) | 0) < u8ArrLen) {
                            read = (read + 1) | 0;
                            break;
                        }
                    default:
                        break putChars;
                }
                //read = read + ((char >> 6) !== 2) |0;
                u8Arr[i] = char;
            }
        }
        return { written: i, read: inputLength < read ? inputLength : read };
    }
}
exports.TextEncoder = TextEncoder;
/**
 * Encode a UTF-8 string into a Uint8Array
 */
function encode(s) {
    return TextEncoder.prototype.encode(s);
}
/**
 * Decode a Uint8Array into a UTF-8 string
 */
function decode(a) {
    return TextDecoder.prototype.decode(a);
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/errors.js"
/*!*******************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/errors.js ***!
  \*******************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.ExternalStorageNotConfiguredError = exports.CompleteAsyncError = exports.NamespaceNotFoundError = exports.WorkflowNotFoundError = exports.IllegalStateError = exports.PayloadConverterError = exports.ValueError = void 0;
const type_helpers_1 = __webpack_require__(/*! ./type-helpers */ "./node_modules/@temporalio/common/lib/type-helpers.js");
/**
 * Thrown from code that receives a value that is unexpected or that it's unable to handle.
 */
let ValueError = class ValueError extends Error {
    cause;
    constructor(message, cause) {
        super(message ?? undefined);
        this.cause = cause;
    }
};
exports.ValueError = ValueError;
exports.ValueError = ValueError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('ValueError')
], ValueError);
/**
 * Thrown when a Payload Converter is misconfigured.
 */
let PayloadConverterError = class PayloadConverterError extends ValueError {
};
exports.PayloadConverterError = PayloadConverterError;
exports.PayloadConverterError = PayloadConverterError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('PayloadConverterError')
], PayloadConverterError);
/**
 * Signals that a requested operation can't be completed because it is illegal given the
 * current state of the object; e.g. trying to use a resource after it has been closed.
 */
let IllegalStateError = class IllegalStateError extends Error {
};
exports.IllegalStateError = IllegalStateError;
exports.IllegalStateError = IllegalStateError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('IllegalStateError')
], IllegalStateError);
/**
 * Thrown when a Workflow with the given Id is not known to Temporal Server.
 * It could be because:
 * - Id passed is incorrect
 * - Workflow is closed (for some calls, e.g. `terminate`)
 * - Workflow was deleted from the Server after reaching its retention limit
 */
let WorkflowNotFoundError = class WorkflowNotFoundError extends Error {
    workflowId;
    runId;
    constructor(message, workflowId, runId) {
        super(message);
        this.workflowId = workflowId;
        this.runId = runId;
    }
};
exports.WorkflowNotFoundError = WorkflowNotFoundError;
exports.WorkflowNotFoundError = WorkflowNotFoundError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('WorkflowNotFoundError')
], WorkflowNotFoundError);
/**
 * Thrown when the specified namespace is not known to Temporal Server.
 */
let NamespaceNotFoundError = class NamespaceNotFoundError extends Error {
    namespace;
    constructor(namespace) {
        super(`Namespace not found: '${namespace}'`);
        this.namespace = namespace;
    }
};
exports.NamespaceNotFoundError = NamespaceNotFoundError;
exports.NamespaceNotFoundError = NamespaceNotFoundError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('NamespaceNotFoundError')
], NamespaceNotFoundError);
/**
 * Throw this error from an Activity in order to make the Worker forget about this Activity.
 *
 * The Activity can then be completed asynchronously (from anywhere—usually outside the Worker) using
 * the Client's activity handle.
 *
 * @example
 *
 * ```ts
 *import { CompleteAsyncError } from '@temporalio/activity';
 *
 *export async function myActivity(): Promise<never> {
 *  // ...
 *  throw new CompleteAsyncError();
 *}
 * ```
 */
let CompleteAsyncError = class CompleteAsyncError extends Error {
};
exports.CompleteAsyncError = CompleteAsyncError;
exports.CompleteAsyncError = CompleteAsyncError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('CompleteAsyncError')
], CompleteAsyncError);
/**
 * Thrown when an inbound payload is detected as an external-storage reference
 * but no `ExternalStorage` is configured to resolve it.
 *
 * @experimental
 */
let ExternalStorageNotConfiguredError = class ExternalStorageNotConfiguredError extends Error {
    constructor(message = 'Detected externally stored payload(s) but external storage is not configured.') {
        super(`[TMPRL1105] ${message}`);
    }
};
exports.ExternalStorageNotConfiguredError = ExternalStorageNotConfiguredError;
exports.ExternalStorageNotConfiguredError = ExternalStorageNotConfiguredError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('ExternalStorageNotConfiguredError')
], ExternalStorageNotConfiguredError);


/***/ },

/***/ "./node_modules/@temporalio/common/lib/failure.js"
/*!********************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/failure.js ***!
  \********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var _a, _b, _c;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.WorkflowExecutionAlreadyStartedError = exports.NexusOperationFailure = exports.ChildWorkflowFailure = exports.ActivityFailure = exports.TimeoutFailure = exports.TerminatedFailure = exports.CancelledFailure = exports.ApplicationFailure = exports.ServerFailure = exports.TemporalFailure = exports.decodeApplicationFailureCategory = exports.encodeApplicationFailureCategory = exports.ApplicationFailureCategory = exports.decodeRetryState = exports.encodeRetryState = exports.RetryState = exports.decodeTimeoutType = exports.encodeTimeoutType = exports.TimeoutType = exports.FAILURE_SOURCE = void 0;
exports.createPayloadValidationError = createPayloadValidationError;
exports.ensureApplicationFailure = ensureApplicationFailure;
exports.ensureTemporalFailure = ensureTemporalFailure;
exports.rootCause = rootCause;
const type_helpers_1 = __webpack_require__(/*! ./type-helpers */ "./node_modules/@temporalio/common/lib/type-helpers.js");
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
exports.FAILURE_SOURCE = 'TypeScriptSDK';
exports.TimeoutType = {
    START_TO_CLOSE: 'START_TO_CLOSE',
    SCHEDULE_TO_START: 'SCHEDULE_TO_START',
    SCHEDULE_TO_CLOSE: 'SCHEDULE_TO_CLOSE',
    HEARTBEAT: 'HEARTBEAT',
    /** @deprecated Use {@link START_TO_CLOSE} instead. */
    TIMEOUT_TYPE_START_TO_CLOSE: 'START_TO_CLOSE',
    /** @deprecated Use {@link SCHEDULE_TO_START} instead. */
    TIMEOUT_TYPE_SCHEDULE_TO_START: 'SCHEDULE_TO_START',
    /** @deprecated Use {@link SCHEDULE_TO_CLOSE} instead. */
    TIMEOUT_TYPE_SCHEDULE_TO_CLOSE: 'SCHEDULE_TO_CLOSE',
    /** @deprecated Use {@link HEARTBEAT} instead. */
    TIMEOUT_TYPE_HEARTBEAT: 'HEARTBEAT',
    /** @deprecated Use `undefined` instead. */
    TIMEOUT_TYPE_UNSPECIFIED: undefined,
};
_a = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.TimeoutType.START_TO_CLOSE]: 1,
    [exports.TimeoutType.SCHEDULE_TO_START]: 2,
    [exports.TimeoutType.SCHEDULE_TO_CLOSE]: 3,
    [exports.TimeoutType.HEARTBEAT]: 4,
    UNSPECIFIED: 0,
}, 'TIMEOUT_TYPE_'), exports.encodeTimeoutType = _a[0], exports.decodeTimeoutType = _a[1];
exports.RetryState = {
    IN_PROGRESS: 'IN_PROGRESS',
    NON_RETRYABLE_FAILURE: 'NON_RETRYABLE_FAILURE',
    TIMEOUT: 'TIMEOUT',
    MAXIMUM_ATTEMPTS_REACHED: 'MAXIMUM_ATTEMPTS_REACHED',
    RETRY_POLICY_NOT_SET: 'RETRY_POLICY_NOT_SET',
    INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
    CANCEL_REQUESTED: 'CANCEL_REQUESTED',
    /** @deprecated Use {@link IN_PROGRESS} instead. */
    RETRY_STATE_IN_PROGRESS: 'IN_PROGRESS',
    /** @deprecated Use {@link NON_RETRYABLE_FAILURE} instead. */
    RETRY_STATE_NON_RETRYABLE_FAILURE: 'NON_RETRYABLE_FAILURE',
    /** @deprecated Use {@link TIMEOUT} instead. */
    RETRY_STATE_TIMEOUT: 'TIMEOUT',
    /** @deprecated Use {@link MAXIMUM_ATTEMPTS_REACHED} instead. */
    RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED: 'MAXIMUM_ATTEMPTS_REACHED',
    /** @deprecated Use {@link RETRY_POLICY_NOT_SET} instead. */
    RETRY_STATE_RETRY_POLICY_NOT_SET: 'RETRY_POLICY_NOT_SET',
    /** @deprecated Use {@link INTERNAL_SERVER_ERROR} instead. */
    RETRY_STATE_INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
    /** @deprecated Use {@link CANCEL_REQUESTED} instead. */
    RETRY_STATE_CANCEL_REQUESTED: 'CANCEL_REQUESTED',
    /** @deprecated Use `undefined` instead. */
    RETRY_STATE_UNSPECIFIED: undefined,
};
_b = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.RetryState.IN_PROGRESS]: 1,
    [exports.RetryState.NON_RETRYABLE_FAILURE]: 2,
    [exports.RetryState.TIMEOUT]: 3,
    [exports.RetryState.MAXIMUM_ATTEMPTS_REACHED]: 4,
    [exports.RetryState.RETRY_POLICY_NOT_SET]: 5,
    [exports.RetryState.INTERNAL_SERVER_ERROR]: 6,
    [exports.RetryState.CANCEL_REQUESTED]: 7,
    UNSPECIFIED: 0,
}, 'RETRY_STATE_'), exports.encodeRetryState = _b[0], exports.decodeRetryState = _b[1];
/**
 * A category to describe the severity and change the observability behavior of an application failure.
 *
 * Currently, observability behavior changes are limited to:
 * - activities that fail due to a BENIGN application failure emit DEBUG level logs and do not record metrics
 *
 * @experimental Category is a new feature and may be subject to change.
 */
exports.ApplicationFailureCategory = {
    BENIGN: 'BENIGN',
};
_c = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.ApplicationFailureCategory.BENIGN]: 1,
    UNSPECIFIED: 0,
}, 'APPLICATION_ERROR_CATEGORY_'), exports.encodeApplicationFailureCategory = _c[0], exports.decodeApplicationFailureCategory = _c[1];
/**
 * Represents failures that can cross Workflow and Activity boundaries.
 *
 * **Never extend this class or any of its children.**
 *
 * The only child class you should ever throw from your code is {@link ApplicationFailure}.
 */
let TemporalFailure = class TemporalFailure extends Error {
    cause;
    /**
     * The original failure that constructed this error.
     *
     * Only present if this error was generated from an external operation.
     */
    failure;
    constructor(message, cause) {
        super(message ?? undefined);
        this.cause = cause;
    }
};
exports.TemporalFailure = TemporalFailure;
exports.TemporalFailure = TemporalFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('TemporalFailure')
], TemporalFailure);
/** Exceptions originated at the Temporal service. */
let ServerFailure = class ServerFailure extends TemporalFailure {
    nonRetryable;
    constructor(message, nonRetryable, cause) {
        super(message, cause);
        this.nonRetryable = nonRetryable;
    }
};
exports.ServerFailure = ServerFailure;
exports.ServerFailure = ServerFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('ServerFailure')
], ServerFailure);
/**
 * `ApplicationFailure`s are used to communicate application-specific failures in Workflows and Activities.
 *
 * The {@link type} property is matched against {@link RetryPolicy.nonRetryableErrorTypes} to determine if an instance
 * of this error is retryable. Another way to avoid retrying is by setting the {@link nonRetryable} flag to `true`.
 *
 * In Workflows, if you throw a non-`ApplicationFailure`, the Workflow Task will fail and be retried. If you throw an
 * `ApplicationFailure`, the Workflow Execution will fail.
 *
 * In Activities, you can either throw an `ApplicationFailure` or another `Error` to fail the Activity Task. In the
 * latter case, the `Error` will be converted to an `ApplicationFailure`. The conversion is done as following:
 *
 * - `type` is set to `error.constructor?.name ?? error.name`
 * - `message` is set to `error.message`
 * - `nonRetryable` is set to false
 * - `details` are set to null
 * - `cause` is set to `error.cause` when it is an `Error`
 * - stack trace is copied from the original error
 *
 * When an {@link https://docs.temporal.io/activity-execution#activity-execution | Activity Execution} fails, the
 * `ApplicationFailure` from the last Activity Task will be the `cause` of the {@link ActivityFailure} thrown in the
 * Workflow.
 */
let ApplicationFailure = class ApplicationFailure extends TemporalFailure {
    type;
    nonRetryable;
    details;
    nextRetryDelay;
    category;
    /**
     * Alternatively, use {@link fromError} or {@link create}.
     */
    constructor(message, type, nonRetryable, details, cause, nextRetryDelay, category) {
        super(message, cause);
        this.type = type;
        this.nonRetryable = nonRetryable;
        this.details = details;
        this.nextRetryDelay = nextRetryDelay;
        this.category = category;
    }
    /**
     * Create a new `ApplicationFailure` from an Error object.
     *
     * First calls {@link ensureApplicationFailure | `ensureApplicationFailure(error)`} and then overrides any fields
     * provided in `overrides`.
     */
    static fromError(error, overrides) {
        const failure = ensureApplicationFailure(error);
        Object.assign(failure, overrides);
        return failure;
    }
    /**
     * Create a new `ApplicationFailure`.
     *
     * By default, will be retryable (unless its `type` is included in {@link RetryPolicy.nonRetryableErrorTypes}).
     */
    static create(options) {
        const { message, type, nonRetryable = false, details, nextRetryDelay, cause, category } = options;
        return new this(message, type, nonRetryable, details, cause, nextRetryDelay, category);
    }
    /**
     * Get a new `ApplicationFailure` with the {@link nonRetryable} flag set to false. Note that this error will still
     * not be retried if its `type` is included in {@link RetryPolicy.nonRetryableErrorTypes}.
     *
     * @param message Optional error message
     * @param type Optional error type (used by {@link RetryPolicy.nonRetryableErrorTypes})
     * @param details Optional details about the failure. Serialized by the Worker's {@link PayloadConverter}.
     */
    static retryable(message, type, ...details) {
        return new this(message, type ?? 'Error', false, details);
    }
    /**
     * Get a new `ApplicationFailure` with the {@link nonRetryable} flag set to true.
     *
     * When thrown from an Activity or Workflow, the Activity or Workflow will not be retried (even if `type` is not
     * listed in {@link RetryPolicy.nonRetryableErrorTypes}).
     *
     * @param message Optional error message
     * @param type Optional error type
     * @param details Optional details about the failure. Serialized by the Worker's {@link PayloadConverter}.
     */
    static nonRetryable(message, type, ...details) {
        return new this(message, type ?? 'Error', true, details);
    }
};
exports.ApplicationFailure = ApplicationFailure;
exports.ApplicationFailure = ApplicationFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('ApplicationFailure')
], ApplicationFailure);
/**
 * Create a non-retryable {@link ApplicationFailure} for reporting a Payload validation failure.
 *
 * Payload Converters and Payload Codecs can throw this failure when they understand a Payload but
 * reject it as invalid. A non-nullish value is stored as a single failure detail; `null` and
 * `undefined` produce an empty details array.
 */
function createPayloadValidationError(details) {
    return ApplicationFailure.create({
        message: 'Payload validation failed',
        type: 'PayloadValidationError',
        nonRetryable: true,
        details: details == null ? [] : [details],
    });
}
/**
 * This error is thrown when Cancellation has been requested. To allow Cancellation to happen, let it propagate. To
 * ignore Cancellation, catch it and continue executing. Note that Cancellation can only be requested a single time, so
 * your Workflow/Activity Execution will not receive further Cancellation requests.
 *
 * When a Workflow or Activity has been successfully cancelled, a `CancelledFailure` will be the `cause`.
 */
let CancelledFailure = class CancelledFailure extends TemporalFailure {
    details;
    constructor(message, details = [], cause) {
        super(message, cause);
        this.details = details;
    }
};
exports.CancelledFailure = CancelledFailure;
exports.CancelledFailure = CancelledFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('CancelledFailure')
], CancelledFailure);
/**
 * Used as the `cause` when a Workflow has been terminated
 */
let TerminatedFailure = class TerminatedFailure extends TemporalFailure {
    constructor(message, cause) {
        super(message, cause);
    }
};
exports.TerminatedFailure = TerminatedFailure;
exports.TerminatedFailure = TerminatedFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('TerminatedFailure')
], TerminatedFailure);
/**
 * Used to represent timeouts of Activities and Workflows
 */
let TimeoutFailure = class TimeoutFailure extends TemporalFailure {
    lastHeartbeatDetails;
    timeoutType;
    constructor(message, lastHeartbeatDetails, timeoutType) {
        super(message);
        this.lastHeartbeatDetails = lastHeartbeatDetails;
        this.timeoutType = timeoutType;
    }
};
exports.TimeoutFailure = TimeoutFailure;
exports.TimeoutFailure = TimeoutFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('TimeoutFailure')
], TimeoutFailure);
/**
 * Contains information about an Activity failure. Always contains the original reason for the failure as its `cause`.
 * For example, if an Activity timed out, the cause will be a {@link TimeoutFailure}.
 *
 * This exception is expected to be thrown only by the framework code.
 */
let ActivityFailure = class ActivityFailure extends TemporalFailure {
    activityType;
    activityId;
    retryState;
    identity;
    constructor(message, activityType, activityId, retryState, identity, cause) {
        super(message, cause);
        this.activityType = activityType;
        this.activityId = activityId;
        this.retryState = retryState;
        this.identity = identity;
    }
};
exports.ActivityFailure = ActivityFailure;
exports.ActivityFailure = ActivityFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('ActivityFailure')
], ActivityFailure);
/**
 * Contains information about a Child Workflow failure. Always contains the reason for the failure as its {@link cause}.
 * For example, if the Child was Terminated, the `cause` is a {@link TerminatedFailure}.
 *
 * This exception is expected to be thrown only by the framework code.
 */
let ChildWorkflowFailure = class ChildWorkflowFailure extends TemporalFailure {
    namespace;
    execution;
    workflowType;
    retryState;
    constructor(namespace, execution, workflowType, retryState, cause) {
        super('Child Workflow execution failed', cause);
        this.namespace = namespace;
        this.execution = execution;
        this.workflowType = workflowType;
        this.retryState = retryState;
    }
};
exports.ChildWorkflowFailure = ChildWorkflowFailure;
exports.ChildWorkflowFailure = ChildWorkflowFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('ChildWorkflowFailure')
], ChildWorkflowFailure);
/**
 * Thrown when a Nexus Operation executed inside a Workflow fails.
 *
 */
let NexusOperationFailure = class NexusOperationFailure extends TemporalFailure {
    scheduledEventId;
    endpoint;
    service;
    operation;
    operationToken;
    constructor(message, scheduledEventId, endpoint, service, operation, operationToken, cause) {
        super(message, cause);
        this.scheduledEventId = scheduledEventId;
        this.endpoint = endpoint;
        this.service = service;
        this.operation = operation;
        this.operationToken = operationToken;
    }
};
exports.NexusOperationFailure = NexusOperationFailure;
exports.NexusOperationFailure = NexusOperationFailure = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('NexusOperationFailure')
], NexusOperationFailure);
// TODO(nexus/error): Maybe add a NexusHandlerFailure class here, once we've decided on error handling.
/**
 * This exception is thrown in the following cases:
 *  - Workflow with the same Workflow ID is currently running and the {@link WorkflowOptions.workflowIdConflictPolicy} is `WORKFLOW_ID_CONFLICT_POLICY_FAIL`
 *  - There is a closed Workflow with the same Workflow Id and the {@link WorkflowOptions.workflowIdReusePolicy}
 *    is `WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE`
 *  - There is closed Workflow in the `Completed` state with the same Workflow Id and the {@link WorkflowOptions.workflowIdReusePolicy}
 *    is `WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY`
 */
let WorkflowExecutionAlreadyStartedError = class WorkflowExecutionAlreadyStartedError extends TemporalFailure {
    workflowId;
    workflowType;
    constructor(message, workflowId, workflowType) {
        super(message);
        this.workflowId = workflowId;
        this.workflowType = workflowType;
    }
};
exports.WorkflowExecutionAlreadyStartedError = WorkflowExecutionAlreadyStartedError;
exports.WorkflowExecutionAlreadyStartedError = WorkflowExecutionAlreadyStartedError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('WorkflowExecutionAlreadyStartedError')
], WorkflowExecutionAlreadyStartedError);
/**
 * If `error` is already an `ApplicationFailure`, returns `error`.
 *
 * Otherwise, converts `error` into an `ApplicationFailure` with:
 *
 * - `message`: `error.message` or `String(error)`
 * - `type`: `error.constructor.name` or `error.name`
 * - `stack`: `error.stack` or `''`
 * - `cause`: `error.cause` when it is an `Error`
 */
function ensureApplicationFailure(error) {
    if (error instanceof ApplicationFailure) {
        return error;
    }
    const message = ((0, type_helpers_1.isRecord)(error) && String(error.message)) || String(error);
    const type = ((0, type_helpers_1.isRecord)(error) && (error.constructor?.name ?? error.name)) || undefined;
    const cause = (0, type_helpers_1.isRecord)(error) && (0, type_helpers_1.isError)(error.cause) ? error.cause : undefined;
    const failure = ApplicationFailure.create({ message, type, nonRetryable: false, cause });
    failure.stack = ((0, type_helpers_1.isRecord)(error) && String(error.stack)) || '';
    return failure;
}
/**
 * If `err` is an Error it is turned into an `ApplicationFailure`.
 *
 * If `err` was already a `TemporalFailure`, returns the original error.
 *
 * Otherwise returns an `ApplicationFailure` with `String(err)` as the message.
 */
function ensureTemporalFailure(err) {
    if (err instanceof TemporalFailure) {
        return err;
    }
    return ensureApplicationFailure(err);
}
/**
 * Get the root cause message of given `error`.
 *
 * In case `error` is a {@link TemporalFailure}, recurse the `cause` chain and return the root `cause.message`.
 * Otherwise, return `error.message`.
 */
function rootCause(error) {
    if (error instanceof TemporalFailure) {
        return error.cause ? rootCause(error.cause) : error.message;
    }
    return (0, type_helpers_1.errorMessage)(error);
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/index.js"
/*!******************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/index.js ***!
  \******************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

/**
 * Common library for code that's used across the Client, Worker, and/or Workflow
 *
 * @module
 */
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || function (mod) {
    if (mod && mod.__esModule) return mod;
    var result = {};
    if (mod != null) for (var k in mod) if (k !== "default" && Object.prototype.hasOwnProperty.call(mod, k)) __createBinding(result, mod, k);
    __setModuleDefault(result, mod);
    return result;
};
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.ActivityCancellationType = exports.defineSearchAttributeKey = exports.TypedSearchAttributes = exports.SearchAttributeType = exports.SuggestContinueAsNewReason = exports.ActivityCancellationDetails = void 0;
exports.u8 = u8;
exports.str = str;
exports.errorMessage = errorMessage;
exports.errorCode = errorCode;
const encoding = __importStar(__webpack_require__(/*! ./encoding */ "./node_modules/@temporalio/common/lib/encoding.js"));
const helpers = __importStar(__webpack_require__(/*! ./type-helpers */ "./node_modules/@temporalio/common/lib/type-helpers.js"));
__exportStar(__webpack_require__(/*! ./activity-definition-options */ "./node_modules/@temporalio/common/lib/activity-definition-options.js"), exports);
var activity_cancellation_details_1 = __webpack_require__(/*! ./activity-cancellation-details */ "./node_modules/@temporalio/common/lib/activity-cancellation-details.js");
Object.defineProperty(exports, "ActivityCancellationDetails", ({ enumerable: true, get: function () { return activity_cancellation_details_1.ActivityCancellationDetails; } }));
var continue_as_new_1 = __webpack_require__(/*! ./continue-as-new */ "./node_modules/@temporalio/common/lib/continue-as-new.js");
Object.defineProperty(exports, "SuggestContinueAsNewReason", ({ enumerable: true, get: function () { return continue_as_new_1.SuggestContinueAsNewReason; } }));
__exportStar(__webpack_require__(/*! ./converter/data-converter */ "./node_modules/@temporalio/common/lib/converter/data-converter.js"), exports);
__exportStar(__webpack_require__(/*! ./converter/extstore */ "./node_modules/@temporalio/common/lib/converter/extstore.js"), exports);
__exportStar(__webpack_require__(/*! ./converter/failure-converter */ "./node_modules/@temporalio/common/lib/converter/failure-converter.js"), exports);
__exportStar(__webpack_require__(/*! ./converter/payload-codec */ "./node_modules/@temporalio/common/lib/converter/payload-codec.js"), exports);
__exportStar(__webpack_require__(/*! ./converter/payload-converter */ "./node_modules/@temporalio/common/lib/converter/payload-converter.js"), exports);
__exportStar(__webpack_require__(/*! ./converter/types */ "./node_modules/@temporalio/common/lib/converter/types.js"), exports);
__exportStar(__webpack_require__(/*! ./deprecated-time */ "./node_modules/@temporalio/common/lib/deprecated-time.js"), exports);
__exportStar(__webpack_require__(/*! ./errors */ "./node_modules/@temporalio/common/lib/errors.js"), exports);
__exportStar(__webpack_require__(/*! ./failure */ "./node_modules/@temporalio/common/lib/failure.js"), exports);
__exportStar(__webpack_require__(/*! ./interfaces */ "./node_modules/@temporalio/common/lib/interfaces.js"), exports);
__exportStar(__webpack_require__(/*! ./logger */ "./node_modules/@temporalio/common/lib/logger.js"), exports);
__exportStar(__webpack_require__(/*! ./priority */ "./node_modules/@temporalio/common/lib/priority.js"), exports);
__exportStar(__webpack_require__(/*! ./metrics */ "./node_modules/@temporalio/common/lib/metrics.js"), exports);
__exportStar(__webpack_require__(/*! ./retry-policy */ "./node_modules/@temporalio/common/lib/retry-policy.js"), exports);
__exportStar(__webpack_require__(/*! ./worker-deployments */ "./node_modules/@temporalio/common/lib/worker-deployments.js"), exports);
__exportStar(__webpack_require__(/*! ./workflow-definition-options */ "./node_modules/@temporalio/common/lib/workflow-definition-options.js"), exports);
__exportStar(__webpack_require__(/*! ./workflow-handle */ "./node_modules/@temporalio/common/lib/workflow-handle.js"), exports);
__exportStar(__webpack_require__(/*! ./workflow-options */ "./node_modules/@temporalio/common/lib/workflow-options.js"), exports);
__exportStar(__webpack_require__(/*! ./versioning-intent */ "./node_modules/@temporalio/common/lib/versioning-intent.js"), exports);
var search_attributes_1 = __webpack_require__(/*! ./search-attributes */ "./node_modules/@temporalio/common/lib/search-attributes.js");
Object.defineProperty(exports, "SearchAttributeType", ({ enumerable: true, get: function () { return search_attributes_1.SearchAttributeType; } }));
Object.defineProperty(exports, "TypedSearchAttributes", ({ enumerable: true, get: function () { return search_attributes_1.TypedSearchAttributes; } }));
Object.defineProperty(exports, "defineSearchAttributeKey", ({ enumerable: true, get: function () { return search_attributes_1.defineSearchAttributeKey; } }));
////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////
// Deprecated APIs
////////////////////////////////////////////////////////////////////////////////////////////////////////////////////////
var activity_options_1 = __webpack_require__(/*! ./activity-options */ "./node_modules/@temporalio/common/lib/activity-options.js");
/**
 * @deprecated Import from `@temporalio/workflow` instead.
 * @hidden
 */
Object.defineProperty(exports, "ActivityCancellationType", ({ enumerable: true, get: function () { return activity_options_1.ActivityCancellationType; } }));
/**
 * Encode a UTF-8 string into a Uint8Array
 *
 * @hidden
 * @deprecated - meant for internal use only
 */
function u8(s) {
    return encoding.encode(s);
}
/**
 * Decode a Uint8Array into a UTF-8 string
 *
 * @hidden
 * @deprecated - meant for internal use only
 */
function str(arr) {
    return encoding.decode(arr);
}
/**
 * Get `error.message` (or `undefined` if not present)
 *
 * @hidden
 * @deprecated - meant for internal use only
 */
function errorMessage(error) {
    return helpers.errorMessage(error);
}
/**
 * Get `error.code` (or `undefined` if not present)
 *
 * @hidden
 * @deprecated - meant for internal use only
 */
function errorCode(error) {
    return helpers.errorCode(error);
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/interceptors.js"
/*!*************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/interceptors.js ***!
  \*************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.composeInterceptorsWith = composeInterceptorsWith;
exports.composeInterceptors = composeInterceptors;
/**
 * Shared implementation for interceptor chaining.
 *
 * The workflow package needs one small behavioral extension over the generic interceptor
 * semantics: every `next(...)` continuation it hands to workflow interceptors must first
 * restore the workflow random scope that was current when that continuation was created.
 *
 * We keep the chain-construction loop here as the single source of truth so ordering and
 * basic composition behavior cannot drift between the generic implementation used by client,
 * worker, activity, and nexus code and the workflow-specific implementation that decorates
 * `next(...)` at each boundary. The only behavior that varies between callers is the
 * `wrapNext` hook: most packages use the identity wrapper, while workflow code supplies a
 * wrapper that re-enters the captured workflow async-local random scope.
 */
function composeInterceptorsWith(interceptors, method, next, wrapNext) {
    let composedNext = next;
    for (let i = interceptors.length - 1; i >= 0; --i) {
        const interceptor = interceptors[i];
        if (interceptor?.[method] !== undefined) {
            const prev = wrapNext(composedNext);
            // We lose type safety here because Typescript can't deduce that interceptor[method] is a function that returns
            // the same type as Next<I, M>
            composedNext = ((input) => interceptor[method](input, prev));
        }
    }
    return composedNext;
}
/**
 * Compose all interceptor methods into a single function.
 *
 * Calling the composed function results in calling each of the provided interceptor, in order (from the first to
 * the last), followed by the original function provided as argument to `composeInterceptors()`.
 *
 * @param interceptors a list of interceptors
 * @param method the name of the interceptor method to compose
 * @param next the original function to be executed at the end of the interception chain
 */
// ts-prune-ignore-next (imported via lib/interceptors)
function composeInterceptors(interceptors, method, next) {
    return composeInterceptorsWith(interceptors, method, next, ((wrappedNext) => wrappedNext));
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/interfaces.js"
/*!***********************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/interfaces.js ***!
  \***********************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.HandlerUnfinishedPolicy = void 0;
/**
 * Policy defining actions taken when a workflow exits while update or signal handlers are running.
 * The workflow exit may be due to successful return, failure, cancellation, or continue-as-new.
 */
exports.HandlerUnfinishedPolicy = {
    /**
     * Issue a warning in addition to abandoning the handler execution. The warning will not be issued if the workflow fails.
     */
    WARN_AND_ABANDON: 'WARN_AND_ABANDON',
    /**
     * Abandon the handler execution.
     *
     * In the case of an update handler this means that the client will receive an error rather than
     * the update result.
     */
    ABANDON: 'ABANDON',
};


/***/ },

/***/ "./node_modules/@temporalio/common/lib/internal-workflow/enums-helpers.js"
/*!********************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/internal-workflow/enums-helpers.js ***!
  \********************************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.makeProtoEnumConverters = makeProtoEnumConverters;
const errors_1 = __webpack_require__(/*! ../errors */ "./node_modules/@temporalio/common/lib/errors.js");
/**
 * Create encoding and decoding functions to convert between the numeric `enum` types produced by our
 * Protobuf compiler and "const object of strings" enum values that we expose in our public APIs.
 *
 * ### Usage
 *
 * Newly introduced enums should follow the following pattern:
 *
 * ```ts
 *     const ParentClosePolicy = {
 *       TERMINATE: 'TERMINATE',
 *       ABANDON: 'ABANDON',
 *       REQUEST_CANCEL: 'REQUEST_CANCEL',
 *     } as const;
 *     type ParentClosePolicy = (typeof ParentClosePolicy)[keyof typeof ParentClosePolicy];
 *
 *     const [encodeParentClosePolicy, decodeParentClosePolicy] = //
 *       makeProtoEnumConverters<
 *         coresdk.child_workflow.ParentClosePolicy,
 *         typeof coresdk.child_workflow.ParentClosePolicy,
 *         keyof typeof coresdk.child_workflow.ParentClosePolicy,
 *         typeof ParentClosePolicy,
 *         'PARENT_CLOSE_POLICY_'  // This may be an empty string if the proto enum doesn't add a repeated prefix on values
 *       >(
 *         {
 *           [ParentClosePolicy.TERMINATE]: 1, // These numbers must match the ones in the proto enum
 *           [ParentClosePolicy.ABANDON]: 2,
 *           [ParentClosePolicy.REQUEST_CANCEL]: 3,
 *
 *           UNSPECIFIED: 0,
 *         } as const,
 *         'PARENT_CLOSE_POLICY_'
 *       );
 * ```
 *
 * `makeProtoEnumConverters` supports other usage patterns, but they are only meant for
 * backward compatibility with former enum definitions and should not be used for new enums.
 *
 * ### Context
 *
 * Temporal's Protobuf APIs define several `enum` types; our Protobuf compiler transforms these to
 * traditional (i.e. non-const) [TypeScript numeric `enum`s](https://www.typescriptlang.org/docs/handbook/enums.html#numeric-enums).
 *
 * For various reasons, this is far from ideal:
 *
 *  - Due to the dual nature of non-const TypeScript `enum`s (they are both a type and a value),
 *    it is not possible to refer to an enum value from code without a "real" import of the enum type
 *    (i.e. can't simply do `import type ...`). In Workflow code, such an import would result in
 *    loading our entire Protobuf definitions into the workflow sandbox, adding several megabytes to
 *    the per-workflow memory footprint, which is unacceptable; to avoid that, we need to maintain
 *    a mirror copy of each enum types used by in-workflow APIs, and export these from either
 *    `@temporalio/common` or `@temporalio/workflow`.
 *  - It is not desirable for users to need an explicit dependency on `@temporalio/proto` just to
 *    get access to these enum types; we therefore made it a common practice to reexport these enums
 *    from our public facing packages. However, experience demontrated that these reexports effectively
 *    resulted in poor and inconsistent documentation coverage compared to mirrored enums types.
 *  - Our Protobuf enum types tend to follow a verbose and redundant naming convention, which feels
 *    unatural and excessive according to most TypeScript style guides; e.g. instead of
 *    `workflowIdReusePolicy: WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE`,
 *    a TypeScript developer would generally expect to be able to write something similar to
 *    `workflowIdReusePolicy: 'REJECT_DUPLICATE'`.
 *  - Because of the way Protobuf works, many of our enum types contain an `UNSPECIFIED` value, which
 *    is used to explicitly identify a value that is unset. In TypeScript code, the `undefined` value
 *    already serves that purpose, and is definitely more idiomatic to TS developers, whereas these
 *    `UNSPECIFIED` values create noise and confusion in our APIs.
 *  - TypeScript editors generally do a very bad job at providing autocompletion that implies reaching
 *    for values of a TypeScript enum type, forcing developers to explicitly type in at least part
 *    of the name of the enum type before they can get autocompletion for its values. On the other
 *    hand, all TS editors immediately provide autocompletion for string union types.
 *  - The [TypeScript's official documentation](https://www.typescriptlang.org/docs/handbook/enums.html#objects-vs-enums)
 *    itself suggests that, in modern TypeScript, the use of `as const` objects may generally suffice
 *    and may be advantageous over the use of `enum` types.
 *
 * A const object of strings, combined with a union type of possible string values, provides a much
 * more idiomatic syntax and a better DX for TypeScript developers. This however requires a way to
 * convert back and forth between the `enum` values produced by the Protobuf compiler and the
 * equivalent string values.
 *
 * This helper dynamically creates these conversion functions for a given Protobuf enum type,
 * strongly building upon specific conventions that we have adopted in our Protobuf definitions.
 *
 * ### Validations
 *
 * The complex type signature of this helper is there to prevent most potential incoherencies
 * that could result from having to manually synchronize the const object of strings enum and the
 * conversion table with the proto enum, while not requiring a regular import on the Protobuf enum
 * itself (so it can be used safely for enums meant to be used from workflow code).
 *
 * In particular, failing any of the following invariants will result in build time errors:
 *
 * - For every key of the form `PREFIX_KEY: number` in the proto enum, excluding the `UNSPECIFIED` key:
 *   - There MUST be a corresponding `KEY: 'KEY'` entry in the const object of strings enum;
 *   - There MAY be a corresponding `PREFIX_KEY: 'KEY'` in the const object of strings enum
 *     (this is meant to preserve backward compatibility with the former syntax; such aliases should
 *     not be added for new enums and enum entries introduced going forward);
 *   - There MUST be a corresponding `KEY: number` in the mapping table.
 * - If the proto enum contains a `PREFIX_UNSPECIFIED` entry, then:
 *   - There MAY be a corresponding `PREFIX_UNSPECIFIED: undefined` and/or `UNSPECIFIED: undefined`
 *     entries in the const object of strings enum — this is meant to preserve backward compatibility
 *     with the former syntax; this alias should not be added for new enums introduced going forward;
 *   - There MUST be an `UNSPECIFIED: 0` in the mapping table.
 * - The const object of strings enum MUST NOT contain any other keys than the ones mandated or
 *   optionally allowed be the preceeding rules.
 * - The mapping table MUST NOT contain any other keys than the ones mandated above.
 *
 * These rules notably ensure that whenever a new value is added to an existing Proto enum, the code
 * will fail to compile until the corresponding entry is added on the const object of strings enum
 * and the mapping table.
 *
 * @internal
 */
function makeProtoEnumConverters(mapTable, prefix) {
    const reverseTable = Object.fromEntries(Object.entries(mapTable).map(([k, v]) => [v, k]));
    const hasUnspecified = mapTable['UNSPECIFIED'] === 0 || mapTable[`${prefix}UNSPECIFIED`] === 0;
    function isShortStringEnumKeys(x) {
        return typeof x === 'string' && x in mapTable;
    }
    function isNumericEnumValue(x) {
        return typeof x === 'number' && x in reverseTable;
    }
    function encode(input) {
        if (input == null) {
            return undefined;
        }
        else if (typeof input === 'string') {
            let shorten = input;
            if (shorten.startsWith(prefix)) {
                shorten = shorten.slice(prefix.length);
            }
            if (isShortStringEnumKeys(shorten)) {
                return mapTable[shorten];
            }
            throw new errors_1.ValueError(`Invalid enum value: '${input}'`);
        }
        else if (typeof input === 'number') {
            return input;
        }
        else {
            throw new errors_1.ValueError(`Invalid enum value: '${input}' of type ${typeof input}`);
        }
    }
    function decode(input) {
        if (input == null) {
            return undefined;
        }
        else if (typeof input === 'number') {
            if (hasUnspecified && input === 0) {
                return undefined;
            }
            if (isNumericEnumValue(input)) {
                return reverseTable[input];
            }
            // We got a proto enum value that we don't yet know about (i.e. it didn't exist when this code
            // was compiled). This is certainly a possibility, but given how our APIs evolve, this is is
            // unlikely to be a terribly bad thing by itself (we avoid adding new enum values in places
            // that would break backward compatibility with existing deployed code). Therefore, throwing
            // on "unexpected" values is likely to end up causing more problems than it might avoid,
            // especially given that the decoded value may actually never get read anwyay.
            //
            // Therefore, we instead cheat on type constraints and return a string of the form "unknown_23".
            // That somewhat mirrors the behavior we'd get with the pure numerical approach.
            return `unknown_${input}`;
        }
        throw new errors_1.ValueError(`Invalid proto enum value: '${input}' of type ${typeof input}`);
    }
    return [encode, decode];
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/internal-workflow/index.js"
/*!************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/internal-workflow/index.js ***!
  \************************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.deepMerge = exports.mergeObjects = exports.filterNullAndUndefined = void 0;
__exportStar(__webpack_require__(/*! ./enums-helpers */ "./node_modules/@temporalio/common/lib/internal-workflow/enums-helpers.js"), exports);
var objects_helpers_1 = __webpack_require__(/*! ./objects-helpers */ "./node_modules/@temporalio/common/lib/internal-workflow/objects-helpers.js");
Object.defineProperty(exports, "filterNullAndUndefined", ({ enumerable: true, get: function () { return objects_helpers_1.filterNullAndUndefined; } }));
Object.defineProperty(exports, "mergeObjects", ({ enumerable: true, get: function () { return objects_helpers_1.mergeObjects; } }));
// ts-prune-ignore-next
Object.defineProperty(exports, "deepMerge", ({ enumerable: true, get: function () { return objects_helpers_1.deepMerge; } }));


/***/ },

/***/ "./node_modules/@temporalio/common/lib/internal-workflow/objects-helpers.js"
/*!**********************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/internal-workflow/objects-helpers.js ***!
  \**********************************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.filterNullAndUndefined = filterNullAndUndefined;
exports.mergeObjects = mergeObjects;
exports.deepMerge = deepMerge;
/**
 * Helper to prevent `undefined` and `null` values overriding defaults when merging maps.
 */
function filterNullAndUndefined(obj) {
    return Object.fromEntries(Object.entries(obj).filter(([_k, v]) => v != null));
}
function mergeObjects(original, delta) {
    if (original == null)
        return delta;
    if (delta == null)
        return original;
    const merged = { ...original };
    let changed = false;
    for (const [k, v] of Object.entries(delta)) {
        if (v !== merged[k]) {
            if (v == null)
                delete merged[k];
            else
                merged[k] = v;
            changed = true;
        }
    }
    return changed ? merged : original;
}
function isObject(item) {
    return item && typeof item === 'object' && !Array.isArray(item);
}
/**
 * Recursively merges two objects, returning a new object.
 *
 * Properties from `source` will overwrite properties on `target`.
 * Nested objects are merged recursively.
 *
 * Object fields in the returned object are references, as in,
 * the returned object is not completely fresh.
 */
function deepMerge(target, source) {
    const output = { ...target };
    if (isObject(target) && isObject(source)) {
        for (const key of Object.keys(source)) {
            const sourceValue = source[key];
            if (isObject(sourceValue) && key in target && isObject(target[key])) {
                output[key] = deepMerge(target[key], sourceValue);
            }
            else {
                output[key] = sourceValue;
            }
        }
    }
    return output;
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/logger.js"
/*!*******************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/logger.js ***!
  \*******************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.LoggerWithComposedMetadata = exports.SdkComponent = void 0;
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
/**
 * Possible values of the `sdkComponent` meta attributes on log messages. This
 * attribute indicates which subsystem emitted the log message; this may for
 * example be used to implement fine-grained filtering of log messages.
 *
 * Note that there is no guarantee that this list will remain stable in the
 * future; values may be added or removed, and messages that are currently
 * emitted with some `sdkComponent` value may use a different value in the future.
 */
var SdkComponent;
(function (SdkComponent) {
    /**
     * Component name for messages emited from Workflow code, using the {@link Workflow context logger|workflow.log}.
     * The SDK itself never publishes messages with this component name.
     */
    SdkComponent["workflow"] = "workflow";
    /**
     * Component name for messages emited from an activity, using the {@link activity context logger|Context.log}.
     * The SDK itself never publishes messages with this component name.
     */
    SdkComponent["activity"] = "activity";
    /**
     * Component name for messages emited from a Nexus Operation Handler, using the Nexus context logger.
     * The SDK itself never publishes messages with this component name.
     */
    SdkComponent["nexus"] = "nexus";
    /**
     * Component name for messages emited from a Temporal Worker instance.
     *
     * This notably includes:
     * - Issues with Worker or runtime configuration, or the JS execution environment;
     * - Worker's, Activity's, and Workflow's lifecycle events;
     * - Workflow Activation and Activity Task processing events;
     * - Workflow bundling messages;
     * - Sink processing issues.
     */
    SdkComponent["worker"] = "worker";
    /**
     * Component name for all messages emitted by the Rust Core SDK library.
     */
    SdkComponent["core"] = "core";
})(SdkComponent || (exports.SdkComponent = SdkComponent = {}));
/**
 * A logger implementation that adds metadata before delegating calls to a parent logger.
 *
 * @internal
 * @hidden
 */
class LoggerWithComposedMetadata {
    parentLogger;
    contributors;
    /**
     * Return a {@link Logger} that adds metadata before delegating calls to a parent logger.
     *
     * New metadata may either be specified statically as a delta object, or as a function evaluated
     * every time a log is emitted that will return a delta object.
     *
     * Some optimizations are performed to avoid creating unnecessary objects and to keep runtime
     * overhead associated with resolving metadata as low as possible.
     */
    static compose(logger, metaOrFunc) {
        // Flatten recursive LoggerWithComposedMetadata instances
        if (logger instanceof LoggerWithComposedMetadata) {
            const contributors = appendToChain(logger.contributors, metaOrFunc);
            // If the new contributor results in no actual change to the chain, then we don't need a new logger
            if (contributors === undefined)
                return logger;
            return new LoggerWithComposedMetadata(logger.parentLogger, contributors);
        }
        else {
            const contributors = appendToChain(undefined, metaOrFunc);
            if (contributors === undefined)
                return logger;
            return new LoggerWithComposedMetadata(logger, contributors);
        }
    }
    constructor(parentLogger, contributors) {
        this.parentLogger = parentLogger;
        this.contributors = contributors;
    }
    log(level, message, extraMeta) {
        this.parentLogger.log(level, message, resolveMetadata(this.contributors, extraMeta));
    }
    trace(message, extraMeta) {
        this.parentLogger.trace(message, resolveMetadata(this.contributors, extraMeta));
    }
    debug(message, extraMeta) {
        this.parentLogger.debug(message, resolveMetadata(this.contributors, extraMeta));
    }
    info(message, extraMeta) {
        this.parentLogger.info(message, resolveMetadata(this.contributors, extraMeta));
    }
    warn(message, extraMeta) {
        this.parentLogger.warn(message, resolveMetadata(this.contributors, extraMeta));
    }
    error(message, extraMeta) {
        this.parentLogger.error(message, resolveMetadata(this.contributors, extraMeta));
    }
}
exports.LoggerWithComposedMetadata = LoggerWithComposedMetadata;
function resolveMetadata(contributors, extraMeta) {
    const resolved = {};
    for (const contributor of contributors) {
        Object.assign(resolved, typeof contributor === 'function' ? contributor() : contributor);
    }
    Object.assign(resolved, extraMeta);
    return (0, internal_workflow_1.filterNullAndUndefined)(resolved);
}
/**
 * Append a metadata contributor to the chain, merging it with the former last contributor if both are plain objects
 */
function appendToChain(existingContributors, newContributor) {
    // If the new contributor is an empty object, then it results in no actual change to the chain
    if (typeof newContributor === 'object' && Object.keys(newContributor).length === 0) {
        return existingContributors;
    }
    // If existing chain is empty, then the new contributor is the chain
    if (existingContributors == null || existingContributors.length === 0) {
        return [newContributor];
    }
    // If both last contributor and new contributor are plain objects, merge them to a single object.
    const last = existingContributors[existingContributors.length - 1];
    if (typeof last === 'object' && typeof newContributor === 'object') {
        const merged = (0, internal_workflow_1.mergeObjects)(last, newContributor);
        if (merged === last)
            return existingContributors;
        return [...existingContributors.slice(0, -1), merged];
    }
    // Otherwise, just append the new contributor to the chain.
    return [...existingContributors, newContributor];
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/metrics.js"
/*!********************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/metrics.js ***!
  \********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.MetricMeterWithComposedTags = exports.noopMetricMeter = void 0;
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
////////////////////////////////////////////////////////////////////////////////////////////////////
/**
 * A meter implementation that does nothing.
 */
class NoopMetricMeter {
    createCounter(name, unit, description) {
        return {
            name,
            unit,
            description,
            kind: 'counter',
            valueType: 'int',
            add(_value, _extraTags) { },
            withTags(_extraTags) {
                return this;
            },
        };
    }
    createHistogram(name, valueType = 'int', unit, description) {
        return {
            name,
            unit,
            description,
            kind: 'histogram',
            valueType,
            record(_value, _extraTags) { },
            withTags(_extraTags) {
                return this;
            },
        };
    }
    createGauge(name, valueType = 'int', unit, description) {
        return {
            name,
            unit,
            description,
            kind: 'gauge',
            valueType,
            set(_value, _extraTags) { },
            withTags(_extraTags) {
                return this;
            },
        };
    }
    createUpDownCounter(name, unit, description) {
        return {
            name,
            unit,
            description,
            kind: 'up-down-counter',
            valueType: 'int',
            add(_value, _extraTags) { },
            withTags(_extraTags) {
                return this;
            },
        };
    }
    withTags(_extraTags) {
        return this;
    }
}
exports.noopMetricMeter = new NoopMetricMeter();
/**
 * A meter implementation that adds tags before delegating calls to a parent meter.
 *
 * @experimental The Metric API is an experimental feature and may be subject to change.
 * @internal
 * @hidden
 */
class MetricMeterWithComposedTags {
    parentMeter;
    contributors;
    /**
     * Return a {@link MetricMeter} that adds tags before delegating calls to a parent meter.
     *
     * New tags may either be specified statically as a delta object, or as a function evaluated
     * every time a metric is recorded that will return a delta object.
     *
     * Some optimizations are performed to avoid creating unnecessary objects and to keep runtime
     * overhead associated with resolving tags as low as possible.
     *
     * @param meter The parent meter to delegate calls to.
     * @param tagsOrFunc New tags may either be specified statically as a delta object, or as a function
     *                   evaluated every time a metric is recorded that will return a delta object.
     * @param force if `true`, then a `MetricMeterWithComposedTags` will be created even if there
     *              is no tags to add. This is useful to add tags support to an underlying meter
     *              implementation that does not support tags directly.
     */
    static compose(meter, tagsOrFunc, force = false) {
        if (meter instanceof MetricMeterWithComposedTags) {
            const contributors = appendToChain(meter.contributors, tagsOrFunc);
            // If the new contributor results in no actual change to the chain, then we don't need a new meter
            if (contributors === undefined && !force)
                return meter;
            return new MetricMeterWithComposedTags(meter.parentMeter, contributors ?? []);
        }
        else {
            const contributors = appendToChain(undefined, tagsOrFunc);
            if (contributors === undefined && !force)
                return meter;
            return new MetricMeterWithComposedTags(meter, contributors ?? []);
        }
    }
    constructor(parentMeter, contributors) {
        this.parentMeter = parentMeter;
        this.contributors = contributors;
    }
    createCounter(name, unit, description) {
        const parentCounter = this.parentMeter.createCounter(name, unit, description);
        return new MetricCounterWithComposedTags(parentCounter, this.contributors);
    }
    createHistogram(name, valueType = 'int', unit, description) {
        const parentHistogram = this.parentMeter.createHistogram(name, valueType, unit, description);
        return new MetricHistogramWithComposedTags(parentHistogram, this.contributors);
    }
    createGauge(name, valueType = 'int', unit, description) {
        const parentGauge = this.parentMeter.createGauge(name, valueType, unit, description);
        return new MetricGaugeWithComposedTags(parentGauge, this.contributors);
    }
    createUpDownCounter(name, unit, description) {
        // FIXME: Remove this guard once up-down-counter support is complete on all MetricMeter
        // implementations and `createUpDownCounter` is no longer optional on MetricMeter.
        if (!this.parentMeter.createUpDownCounter) {
            throw new Error('createUpDownCounter is not supported by the underlying meter');
        }
        const parentCounter = this.parentMeter.createUpDownCounter(name, unit, description);
        return new MetricUpDownCounterWithComposedTags(parentCounter, this.contributors);
    }
    withTags(tags) {
        return MetricMeterWithComposedTags.compose(this, tags);
    }
}
exports.MetricMeterWithComposedTags = MetricMeterWithComposedTags;
/**
 * @experimental The Metric API is an experimental feature and may be subject to change.
 */
class MetricCounterWithComposedTags {
    parentCounter;
    contributors;
    kind = 'counter';
    valueType = 'int';
    constructor(parentCounter, contributors) {
        this.parentCounter = parentCounter;
        this.contributors = contributors;
    }
    add(value, extraTags) {
        this.parentCounter.add(value, resolveTags(this.contributors, extraTags));
    }
    withTags(extraTags) {
        const contributors = appendToChain(this.contributors, extraTags);
        if (contributors === undefined)
            return this;
        return new MetricCounterWithComposedTags(this.parentCounter, contributors);
    }
    get name() {
        return this.parentCounter.name;
    }
    get unit() {
        return this.parentCounter.unit;
    }
    get description() {
        return this.parentCounter.description;
    }
}
/**
 * @experimental The Metric API is an experimental feature and may be subject to change.
 */
class MetricHistogramWithComposedTags {
    parentHistogram;
    contributors;
    kind = 'histogram';
    constructor(parentHistogram, contributors) {
        this.parentHistogram = parentHistogram;
        this.contributors = contributors;
    }
    record(value, extraTags) {
        this.parentHistogram.record(value, resolveTags(this.contributors, extraTags));
    }
    withTags(extraTags) {
        const contributors = appendToChain(this.contributors, extraTags);
        if (contributors === undefined)
            return this;
        return new MetricHistogramWithComposedTags(this.parentHistogram, contributors);
    }
    get name() {
        return this.parentHistogram.name;
    }
    get valueType() {
        return this.parentHistogram.valueType;
    }
    get unit() {
        return this.parentHistogram.unit;
    }
    get description() {
        return this.parentHistogram.description;
    }
}
/**
 * @internal
 * @hidden
 */
class MetricGaugeWithComposedTags {
    parentGauge;
    contributors;
    kind = 'gauge';
    constructor(parentGauge, contributors) {
        this.parentGauge = parentGauge;
        this.contributors = contributors;
    }
    set(value, extraTags) {
        this.parentGauge.set(value, resolveTags(this.contributors, extraTags));
    }
    withTags(extraTags) {
        const contributors = appendToChain(this.contributors, extraTags);
        if (contributors === undefined)
            return this;
        return new MetricGaugeWithComposedTags(this.parentGauge, contributors);
    }
    get name() {
        return this.parentGauge.name;
    }
    get valueType() {
        return this.parentGauge.valueType;
    }
    get unit() {
        return this.parentGauge.unit;
    }
    get description() {
        return this.parentGauge.description;
    }
}
/**
 * @internal
 * @hidden
 */
class MetricUpDownCounterWithComposedTags {
    parentCounter;
    contributors;
    kind = 'up-down-counter';
    valueType = 'int';
    constructor(parentCounter, contributors) {
        this.parentCounter = parentCounter;
        this.contributors = contributors;
    }
    add(value, extraTags) {
        this.parentCounter.add(value, resolveTags(this.contributors, extraTags));
    }
    withTags(extraTags) {
        const contributors = appendToChain(this.contributors, extraTags);
        if (contributors === undefined)
            return this;
        return new MetricUpDownCounterWithComposedTags(this.parentCounter, contributors);
    }
    get name() {
        return this.parentCounter.name;
    }
    get unit() {
        return this.parentCounter.unit;
    }
    get description() {
        return this.parentCounter.description;
    }
}
function resolveTags(contributors, extraTags) {
    const resolved = {};
    for (const contributor of contributors) {
        Object.assign(resolved, typeof contributor === 'function' ? contributor() : contributor);
    }
    Object.assign(resolved, extraTags);
    return (0, internal_workflow_1.filterNullAndUndefined)(resolved);
}
/**
 * Append a tags contributor to the chain, merging it with the former last contributor if possible.
 *
 * If appending the new contributor results in no actual change to the chain of contributors, return
 * `existingContributors`; in that case, the caller should avoid creating a new object if possible.
 */
function appendToChain(existingContributors, newContributor) {
    // If the new contributor is an empty object, then it results in no actual change to the chain
    if (typeof newContributor === 'object' && Object.keys(newContributor).length === 0) {
        return existingContributors;
    }
    // If existing chain is empty, then the new contributor is the chain
    if (existingContributors == null || existingContributors.length === 0) {
        return [newContributor];
    }
    // If both last contributor and new contributor are plain objects, merge them to a single object.
    const last = existingContributors[existingContributors.length - 1];
    if (typeof last === 'object' && typeof newContributor === 'object') {
        const merged = (0, internal_workflow_1.mergeObjects)(last, newContributor);
        if (merged === last)
            return existingContributors;
        return [...existingContributors.slice(0, -1), merged];
    }
    // Otherwise, just append the new contributor to the chain.
    return [...existingContributors, newContributor];
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/priority.js"
/*!*********************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/priority.js ***!
  \*********************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.decodePriority = decodePriority;
exports.compilePriority = compilePriority;
/**
 * Turn a proto compatible Priority into a TS Priority
 */
function decodePriority(priority) {
    return {
        priorityKey: priority?.priorityKey ?? undefined,
        fairnessKey: priority?.fairnessKey ?? undefined,
        fairnessWeight: priority?.fairnessWeight ?? undefined,
    };
}
/**
 * Turn a TS Priority into a proto compatible Priority
 */
function compilePriority(priority) {
    if (priority.priorityKey !== undefined && priority.priorityKey !== null) {
        if (!Number.isInteger(priority.priorityKey)) {
            throw new TypeError('priorityKey must be an integer');
        }
        if (priority.priorityKey < 0) {
            throw new RangeError('priorityKey must be a positive integer');
        }
    }
    return {
        priorityKey: priority.priorityKey ?? 0,
        fairnessKey: priority.fairnessKey ?? '',
        fairnessWeight: priority.fairnessWeight ?? 0,
    };
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/reserved.js"
/*!*********************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/reserved.js ***!
  \*********************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.ENHANCED_STACK_TRACE_QUERY_NAME = exports.STACK_TRACE_QUERY_NAME = exports.TEMPORAL_RESERVED_PREFIX = void 0;
exports.throwIfReservedName = throwIfReservedName;
exports.TEMPORAL_RESERVED_PREFIX = '__temporal_';
exports.STACK_TRACE_QUERY_NAME = '__stack_trace';
exports.ENHANCED_STACK_TRACE_QUERY_NAME = '__enhanced_stack_trace';
/**
 * Wire identifiers used by first-party SDK contrib packages. Each entry pairs
 * a name with the entity type it's allowed to register as; that pair bypasses
 * the {@link TEMPORAL_RESERVED_PREFIX} check at registration time. Registering
 * the same name as a different entity type is still rejected.
 */
const INTERNAL_RESERVED_NAME_ALLOWLIST = new Map([
    // @temporalio/workflow-streams
    ['__temporal_workflow_stream_publish', 'signal'],
    ['__temporal_workflow_stream_poll', 'update'],
    ['__temporal_workflow_stream_offset', 'query'],
    // @temporalio/openai-agents
    ['__temporal_openai_agents_tracing', 'sink'],
    // @temporalio/langsmith
    ['__temporal_langsmith', 'sink'],
]);
/**
 * Validates if the provided name contains any reserved prefixes or matches any reserved names.
 * Throws a TypeError if validation fails, with a specific message indicating whether the issue
 * is with a reserved prefix or an exact match to a reserved name.
 *
 * @param type The entity type being checked
 * @param name The name to check against reserved prefixes/names
 */
function throwIfReservedName(type, name) {
    if (name.startsWith(exports.TEMPORAL_RESERVED_PREFIX) && INTERNAL_RESERVED_NAME_ALLOWLIST.get(name) !== type) {
        throw new TypeError(`Cannot use ${type} name: '${name}', with reserved prefix: '${exports.TEMPORAL_RESERVED_PREFIX}'`);
    }
    if (name === exports.STACK_TRACE_QUERY_NAME || name === exports.ENHANCED_STACK_TRACE_QUERY_NAME) {
        throw new TypeError(`Cannot use ${type} name: '${name}', which is a reserved name`);
    }
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/retry-policy.js"
/*!*************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/retry-policy.js ***!
  \*************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.compileRetryPolicy = compileRetryPolicy;
exports.decompileRetryPolicy = decompileRetryPolicy;
const errors_1 = __webpack_require__(/*! ./errors */ "./node_modules/@temporalio/common/lib/errors.js");
const time_1 = __webpack_require__(/*! ./time */ "./node_modules/@temporalio/common/lib/time.js");
/**
 * Turn a TS RetryPolicy into a proto compatible RetryPolicy
 */
function compileRetryPolicy(retryPolicy) {
    if (retryPolicy.backoffCoefficient != null && retryPolicy.backoffCoefficient <= 0) {
        throw new errors_1.ValueError('RetryPolicy.backoffCoefficient must be greater than 0');
    }
    if (retryPolicy.maximumAttempts != null) {
        if (retryPolicy.maximumAttempts === Number.POSITIVE_INFINITY) {
            // drop field (Infinity is the default)
            const { maximumAttempts: _, ...without } = retryPolicy;
            retryPolicy = without;
        }
        else if (retryPolicy.maximumAttempts <= 0) {
            throw new errors_1.ValueError('RetryPolicy.maximumAttempts must be a positive integer');
        }
        else if (!Number.isInteger(retryPolicy.maximumAttempts)) {
            throw new errors_1.ValueError('RetryPolicy.maximumAttempts must be an integer');
        }
    }
    const maximumInterval = (0, time_1.msOptionalToNumber)(retryPolicy.maximumInterval);
    const initialInterval = (0, time_1.msToNumber)(retryPolicy.initialInterval ?? 1000);
    if (maximumInterval === 0) {
        throw new errors_1.ValueError('RetryPolicy.maximumInterval cannot be 0');
    }
    if (initialInterval === 0) {
        throw new errors_1.ValueError('RetryPolicy.initialInterval cannot be 0');
    }
    if (maximumInterval != null && maximumInterval < initialInterval) {
        throw new errors_1.ValueError('RetryPolicy.maximumInterval cannot be less than its initialInterval');
    }
    return {
        maximumAttempts: retryPolicy.maximumAttempts,
        initialInterval: (0, time_1.msToTs)(initialInterval),
        maximumInterval: (0, time_1.msOptionalToTs)(maximumInterval),
        backoffCoefficient: retryPolicy.backoffCoefficient,
        nonRetryableErrorTypes: retryPolicy.nonRetryableErrorTypes,
    };
}
/**
 * Turn a proto compatible RetryPolicy into a TS RetryPolicy
 */
function decompileRetryPolicy(retryPolicy) {
    if (!retryPolicy) {
        return undefined;
    }
    return {
        backoffCoefficient: retryPolicy.backoffCoefficient ?? undefined,
        maximumAttempts: retryPolicy.maximumAttempts ?? undefined,
        maximumInterval: (0, time_1.optionalTsToMs)(retryPolicy.maximumInterval),
        initialInterval: (0, time_1.optionalTsToMs)(retryPolicy.initialInterval),
        nonRetryableErrorTypes: retryPolicy.nonRetryableErrorTypes ?? undefined,
    };
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/search-attributes.js"
/*!******************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/search-attributes.js ***!
  \******************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var _a;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.TypedSearchAttributes = exports.TypedSearchAttributeUpdateValue = exports.TypedSearchAttributeValue = exports._ = exports.encodeSearchAttributeIndexedValueType = exports.SearchAttributeType = void 0;
exports.isValidValueForType = isValidValueForType;
exports.defineSearchAttributeKey = defineSearchAttributeKey;
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
exports.SearchAttributeType = {
    TEXT: 'TEXT',
    KEYWORD: 'KEYWORD',
    INT: 'INT',
    DOUBLE: 'DOUBLE',
    BOOL: 'BOOL',
    DATETIME: 'DATETIME',
    KEYWORD_LIST: 'KEYWORD_LIST',
};
// Note: encodeSearchAttributeIndexedValueType exported for use in tests to register search attributes
// ts-prune-ignore-next
_a = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.SearchAttributeType.TEXT]: 1,
    [exports.SearchAttributeType.KEYWORD]: 2,
    [exports.SearchAttributeType.INT]: 3,
    [exports.SearchAttributeType.DOUBLE]: 4,
    [exports.SearchAttributeType.BOOL]: 5,
    [exports.SearchAttributeType.DATETIME]: 6,
    [exports.SearchAttributeType.KEYWORD_LIST]: 7,
    UNSPECIFIED: 0,
}, 'INDEXED_VALUE_TYPE_'), exports.encodeSearchAttributeIndexedValueType = _a[0], exports._ = _a[1];
function isValidValueForType(type, value) {
    switch (type) {
        case exports.SearchAttributeType.TEXT:
        case exports.SearchAttributeType.KEYWORD:
            return typeof value === 'string';
        case exports.SearchAttributeType.INT:
            return Number.isInteger(value);
        case exports.SearchAttributeType.DOUBLE:
            return typeof value === 'number';
        case exports.SearchAttributeType.BOOL:
            return typeof value === 'boolean';
        case exports.SearchAttributeType.DATETIME:
            return value instanceof Date;
        case exports.SearchAttributeType.KEYWORD_LIST:
            return Array.isArray(value) && value.every((item) => typeof item === 'string');
        default:
            return false;
    }
}
function defineSearchAttributeKey(name, type) {
    return { name, type };
}
class BaseSearchAttributeValue {
    _type;
    _value;
    constructor(type, value) {
        this._type = type;
        this._value = value;
    }
    get type() {
        return this._type;
    }
    get value() {
        return this._value;
    }
}
// Internal type for class private data.
// Exported for use in payload conversion.
class TypedSearchAttributeValue extends BaseSearchAttributeValue {
}
exports.TypedSearchAttributeValue = TypedSearchAttributeValue;
// ts-prune-ignore-next
class TypedSearchAttributeUpdateValue extends BaseSearchAttributeValue {
}
exports.TypedSearchAttributeUpdateValue = TypedSearchAttributeUpdateValue;
class TypedSearchAttributes {
    searchAttributes = {};
    constructor(initialAttributes) {
        if (initialAttributes === undefined)
            return;
        for (const pair of initialAttributes) {
            if (pair.key.name in this.searchAttributes) {
                throw new Error(`Duplicate search attribute key: ${pair.key.name}`);
            }
            this.searchAttributes[pair.key.name] = new TypedSearchAttributeValue(pair.key.type, pair.value);
        }
    }
    get(key) {
        const attr = this.searchAttributes[key.name];
        // Key not found or type mismatch.
        if (attr === undefined || !isValidValueForType(key.type, attr.value)) {
            return undefined;
        }
        return attr.value;
    }
    /** Returns a deep copy of the given TypedSearchAttributes instance */
    copy() {
        const state = {};
        for (const [key, attr] of Object.entries(this.searchAttributes)) {
            // Create a new instance with the same properties
            let value = attr.value;
            // For non-primitive types, create a deep copy
            if (attr.value instanceof Date) {
                value = new Date(attr.value);
            }
            else if (Array.isArray(attr.value)) {
                value = [...attr.value];
            }
            state[key] = new TypedSearchAttributeValue(attr.type, value);
        }
        // Create return value with manually assigned state.
        const res = new TypedSearchAttributes();
        res.searchAttributes = state;
        return res;
    }
    /**
     * @hidden
     * Return JSON representation of this class as SearchAttributePair[]
     * Default toJSON method is not used because it's JSON representation includes private state.
     */
    toJSON() {
        return this.getAll();
    }
    /** Returns a copy of the current TypedSearchAttributes instance with the updated attributes. */
    updateCopy(updates) {
        // Create a deep copy of the current instance.
        const res = this.copy();
        // Apply updates.
        res.update(updates);
        return res;
    }
    // Performs direct mutation on the current instance.
    update(updates) {
        // Apply updates.
        for (const pair of updates) {
            // Delete attribute.
            if (pair.value === null) {
                // Delete only if the update matches a key and type.
                const attrVal = this.searchAttributes[pair.key.name];
                if (attrVal && attrVal.type === pair.key.type) {
                    delete this.searchAttributes[pair.key.name];
                }
                continue;
            }
            // Add or update attribute.
            this.searchAttributes[pair.key.name] = new TypedSearchAttributeValue(pair.key.type, pair.value);
        }
    }
    getAll() {
        const res = [];
        for (const [key, attr] of Object.entries(this.searchAttributes)) {
            const attrKey = { name: key, type: attr.type };
            // Sanity check, should always be legal.
            if (isValidValueForType(attrKey.type, attr.value)) {
                res.push({ key: attrKey, value: attr.value });
            }
        }
        return res;
    }
    static getKeyFromUntyped(key, value) {
        if (value == null) {
            return;
        }
        // Unpack single-element arrays.
        const val = value.length === 1 ? value[0] : value;
        switch (typeof val) {
            case 'string':
                // Check if val is an ISO string, if so, return a DATETIME key.
                if (!isNaN(Date.parse(val)) && Date.parse(val) === new Date(val).getTime()) {
                    return { name: key, type: exports.SearchAttributeType.DATETIME };
                }
                return { name: key, type: exports.SearchAttributeType.TEXT };
            case 'number':
                return {
                    name: key,
                    type: Number.isInteger(val) ? exports.SearchAttributeType.INT : exports.SearchAttributeType.DOUBLE,
                };
            case 'boolean':
                return { name: key, type: exports.SearchAttributeType.BOOL };
            case 'object':
                if (val instanceof Date) {
                    return { name: key, type: exports.SearchAttributeType.DATETIME };
                }
                if (Array.isArray(val) && val.every((item) => typeof item === 'string')) {
                    return { name: key, type: exports.SearchAttributeType.KEYWORD_LIST };
                }
                return;
            default:
                return;
        }
    }
    static toMetadataType(type) {
        switch (type) {
            case exports.SearchAttributeType.TEXT:
                return 'Text';
            case exports.SearchAttributeType.KEYWORD:
                return 'Keyword';
            case exports.SearchAttributeType.INT:
                return 'Int';
            case exports.SearchAttributeType.DOUBLE:
                return 'Double';
            case exports.SearchAttributeType.BOOL:
                return 'Bool';
            case exports.SearchAttributeType.DATETIME:
                return 'Datetime';
            case exports.SearchAttributeType.KEYWORD_LIST:
                return 'KeywordList';
            default:
                throw new Error(`Unknown search attribute type: ${type}`);
        }
    }
    static toSearchAttributeType(type) {
        // The type metadata is usually in PascalCase (e.g. "KeywordList") but in
        // rare cases may be in SCREAMING_SNAKE_CASE (e.g. "INDEXED_VALUE_TYPE_KEYWORD_LIST").
        switch (type) {
            case 'Text':
            case 'INDEXED_VALUE_TYPE_TEXT':
                return exports.SearchAttributeType.TEXT;
            case 'Keyword':
            case 'INDEXED_VALUE_TYPE_KEYWORD':
                return exports.SearchAttributeType.KEYWORD;
            case 'Int':
            case 'INDEXED_VALUE_TYPE_INT':
                return exports.SearchAttributeType.INT;
            case 'Double':
            case 'INDEXED_VALUE_TYPE_DOUBLE':
                return exports.SearchAttributeType.DOUBLE;
            case 'Bool':
            case 'INDEXED_VALUE_TYPE_BOOL':
                return exports.SearchAttributeType.BOOL;
            case 'Datetime':
            case 'INDEXED_VALUE_TYPE_DATETIME':
                return exports.SearchAttributeType.DATETIME;
            case 'KeywordList':
            case 'INDEXED_VALUE_TYPE_KEYWORD_LIST':
                return exports.SearchAttributeType.KEYWORD_LIST;
            default:
                return;
        }
    }
}
exports.TypedSearchAttributes = TypedSearchAttributes;


/***/ },

/***/ "./node_modules/@temporalio/common/lib/time.js"
/*!*****************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/time.js ***!
  \*****************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.optionalTsToMs = optionalTsToMs;
exports.requiredTsToMs = requiredTsToMs;
exports.tsToMs = tsToMs;
exports.msNumberToTs = msNumberToTs;
exports.msToTs = msToTs;
exports.msOptionalToTs = msOptionalToTs;
exports.msOptionalToNumber = msOptionalToNumber;
exports.msToNumber = msToNumber;
exports.tsToDate = tsToDate;
exports.requiredTsToDate = requiredTsToDate;
exports.optionalTsToDate = optionalTsToDate;
exports.optionalDateToTs = optionalDateToTs;
const long_1 = __importDefault(__webpack_require__(/*! long */ "./node_modules/long/umd/index.js"));
const ms_1 = __importDefault(__webpack_require__(/*! ms */ "./node_modules/ms/dist/index.cjs"));
const errors_1 = __webpack_require__(/*! ./errors */ "./node_modules/@temporalio/common/lib/errors.js");
/**
 * Lossy conversion function from Timestamp to number due to possible overflow.
 * If ts is null or undefined returns undefined.
 */
function optionalTsToMs(ts) {
    if (ts === undefined || ts === null) {
        return undefined;
    }
    return tsToMs(ts);
}
/**
 * Lossy conversion function from Timestamp to number due to possible overflow.
 * If ts is null or undefined, throws a TypeError, with error message including the name of the field.
 */
function requiredTsToMs(ts, fieldName) {
    if (ts === undefined || ts === null) {
        throw new TypeError(`Expected ${fieldName} to be a timestamp, got ${ts}`);
    }
    return tsToMs(ts);
}
/**
 * Lossy conversion function from Timestamp to number due to possible overflow
 */
function tsToMs(ts) {
    if (ts === undefined || ts === null) {
        throw new Error(`Expected timestamp, got ${ts}`);
    }
    const { seconds, nanos } = ts;
    return (seconds || long_1.default.UZERO)
        .mul(1000)
        .add(Math.floor((nanos || 0) / 1000000))
        .toNumber();
}
function msNumberToTs(millis) {
    const seconds = Math.floor(millis / 1000);
    const nanos = (millis % 1000) * 1000000;
    if (Number.isNaN(seconds) || Number.isNaN(nanos)) {
        throw new errors_1.ValueError(`Invalid millis ${millis}`);
    }
    return { seconds: long_1.default.fromNumber(seconds), nanos };
}
function msToTs(str) {
    return msNumberToTs(msToNumber(str));
}
function msOptionalToTs(str) {
    return str != null ? msToTs(str) : undefined;
}
function msOptionalToNumber(val) {
    if (val === undefined)
        return undefined;
    return msToNumber(val);
}
function msToNumber(val) {
    if (typeof val === 'number') {
        return val;
    }
    return msWithValidation(val);
}
function msWithValidation(str) {
    const millis = (0, ms_1.default)(str);
    if (millis == null || isNaN(millis)) {
        throw new TypeError(`Invalid duration string: '${str}'`);
    }
    return millis;
}
function tsToDate(ts) {
    return new Date(tsToMs(ts));
}
// ts-prune-ignore-next
function requiredTsToDate(ts, fieldName) {
    return new Date(requiredTsToMs(ts, fieldName));
}
function optionalTsToDate(ts) {
    if (ts === undefined || ts === null) {
        return undefined;
    }
    return new Date(tsToMs(ts));
}
// ts-prune-ignore-next (imported via schedule-helpers.ts)
function optionalDateToTs(date) {
    if (date === undefined || date === null) {
        return undefined;
    }
    return msToTs(date.getTime());
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/type-helpers.js"
/*!*************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/type-helpers.js ***!
  \*************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.checkExtends = checkExtends;
exports.isRecord = isRecord;
exports.hasOwnProperty = hasOwnProperty;
exports.hasOwnProperties = hasOwnProperties;
exports.isError = isError;
exports.isAbortError = isAbortError;
exports.errorMessage = errorMessage;
exports.errorCode = errorCode;
exports.assertNever = assertNever;
exports.SymbolBasedInstanceOfError = SymbolBasedInstanceOfError;
/** Verify that an type _Copy extends _Orig */
function checkExtends() {
    // noop, just type check
}
function isRecord(value) {
    return typeof value === 'object' && value !== null;
}
function hasOwnProperty(record, prop) {
    return prop in record;
}
function hasOwnProperties(record, props) {
    return props.every((prop) => prop in record);
}
function isError(error) {
    return (isRecord(error) &&
        typeof error.name === 'string' &&
        typeof error.message === 'string' &&
        (error.stack == null || typeof error.stack === 'string'));
}
function isAbortError(error) {
    return isError(error) && error.name === 'AbortError';
}
/**
 * Get `error.message` (or `undefined` if not present)
 */
function errorMessage(error) {
    if (isError(error)) {
        return error.message;
    }
    else if (typeof error === 'string') {
        return error;
    }
    return undefined;
}
function isErrorWithCode(error) {
    return isRecord(error) && typeof error.code === 'string';
}
/**
 * Get `error.code` (or `undefined` if not present)
 */
function errorCode(error) {
    if (isErrorWithCode(error)) {
        return error.code;
    }
    return undefined;
}
/**
 * Asserts that some type is the never type
 */
function assertNever(msg, x) {
    throw new TypeError(msg + ': ' + x);
}
/**
 * A decorator to be used on error classes. It adds the 'name' property AND provides a custom
 * 'instanceof' handler that works correctly across execution contexts.
 *
 * ### Details ###
 *
 * According to the EcmaScript's spec, the default behavior of JavaScript's `x instanceof Y` operator is to walk up the
 * prototype chain of object 'x', checking if any constructor in that hierarchy is _exactly the same object_ as the
 * constructor function 'Y'.
 *
 * Unfortunately, it happens in various situations that different constructor function objects get created for what
 * appears to be the very same class. This leads to surprising behavior where `instanceof` returns false though it is
 * known that the object is indeed an instance of that class. One particular case where this happens is when constructor
 * 'Y' belongs to a different realm than the constuctor with which 'x' was instantiated. Another case is when two copies
 * of the same library gets loaded in the same realm.
 *
 * In practice, this tends to cause issues when crossing the workflow-sandboxing boundary (since Node's vm module
 * really creates new execution realms), as well as when running tests using Jest (see https://github.com/jestjs/jest/issues/2549
 * for some details on that one).
 *
 * This function injects a custom 'instanceof' handler into the prototype of 'clazz', which is both cross-realm safe and
 * cross-copies-of-the-same-lib safe. It works by adding a special symbol property to the prototype of 'clazz', and then
 * checking for the presence of that symbol.
 */
function SymbolBasedInstanceOfError(markerName) {
    return (clazz) => {
        const marker = Symbol.for(`__temporal_is${markerName}`);
        Object.defineProperty(clazz.prototype, 'name', { value: markerName, enumerable: true });
        Object.defineProperty(clazz.prototype, marker, { value: true, enumerable: false });
        Object.defineProperty(clazz, Symbol.hasInstance, {
            // eslint-disable-next-line object-shorthand
            value: function (error) {
                if (this === clazz) {
                    return isRecord(error) && error[marker] === true;
                }
                else {
                    // 'this' must be a _subclass_ of clazz that doesn't redefined [Symbol.hasInstance], so that it inherited
                    // from clazz's [Symbol.hasInstance]. If we don't handle this particular situation, then
                    // `x instanceof SubclassOfParent` would return true for any instance of 'Parent', which is clearly wrong.
                    //
                    // Ideally, it'd be preferable to avoid this case entirely, by making sure that all subclasses of 'clazz'
                    // redefine [Symbol.hasInstance], but we can't enforce that. We therefore fallback to the default instanceof
                    // behavior (which is NOT cross-realm safe).
                    return this.prototype.isPrototypeOf(error); // eslint-disable-line no-prototype-builtins
                }
            },
        });
    };
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/user-metadata.js"
/*!**************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/user-metadata.js ***!
  \**************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.userMetadataToPayload = userMetadataToPayload;
const payload_converter_1 = __webpack_require__(/*! ./converter/payload-converter */ "./node_modules/@temporalio/common/lib/converter/payload-converter.js");
function userMetadataToPayload(payloadConverter, staticSummary, staticDetails, context) {
    if (staticSummary == null && staticDetails == null)
        return undefined;
    const summary = (0, payload_converter_1.convertOptionalToPayload)(payloadConverter, staticSummary, context);
    const details = (0, payload_converter_1.convertOptionalToPayload)(payloadConverter, staticDetails, context);
    if (summary == null && details == null)
        return undefined;
    return { summary, details };
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/versioning-intent-enum.js"
/*!***********************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/versioning-intent-enum.js ***!
  \***********************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.VersioningIntent = void 0;
exports.versioningIntentToProto = versioningIntentToProto;
const type_helpers_1 = __webpack_require__(/*! ./type-helpers */ "./node_modules/@temporalio/common/lib/type-helpers.js");
// Avoid importing the proto implementation to reduce workflow bundle size
// Copied from coresdk.common.VersioningIntent
/**
 * Protobuf enum representation of {@link VersioningIntentString}.
 *
 * @deprecated Worker Versioning is now deprecated. Please use the Worker Deployment API instead: https://docs.temporal.io/worker-deployments
 */
var VersioningIntent;
(function (VersioningIntent) {
    VersioningIntent[VersioningIntent["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    VersioningIntent[VersioningIntent["COMPATIBLE"] = 1] = "COMPATIBLE";
    VersioningIntent[VersioningIntent["DEFAULT"] = 2] = "DEFAULT";
})(VersioningIntent || (exports.VersioningIntent = VersioningIntent = {}));
(0, type_helpers_1.checkExtends)();
(0, type_helpers_1.checkExtends)();
/**
 * @deprecated Worker Versioning is now deprecated. Please use the Worker Deployment API instead: https://docs.temporal.io/worker-deployments
 */
function versioningIntentToProto(intent) {
    switch (intent) {
        case 'DEFAULT':
            return VersioningIntent.DEFAULT;
        case 'COMPATIBLE':
            return VersioningIntent.COMPATIBLE;
        case undefined:
            return VersioningIntent.UNSPECIFIED;
        default:
            (0, type_helpers_1.assertNever)('Unexpected VersioningIntent', intent);
    }
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/versioning-intent.js"
/*!******************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/versioning-intent.js ***!
  \******************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));


/***/ },

/***/ "./node_modules/@temporalio/common/lib/worker-deployments.js"
/*!*******************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/worker-deployments.js ***!
  \*******************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var _a, _b;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.decodeInitialVersioningBehavior = exports.encodeInitialVersioningBehavior = exports.InitialVersioningBehavior = exports.decodeVersioningBehavior = exports.encodeVersioningBehavior = exports.VersioningBehavior = void 0;
exports.toCanonicalString = toCanonicalString;
exports.convertDeploymentVersion = convertDeploymentVersion;
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
/**
 * @returns The canonical representation of a deployment version, which is a string in the format
 * `deploymentName.buildId`.
 */
function toCanonicalString(version) {
    return `${version.deploymentName}.${version.buildId}`;
}
/**
 * Specifies when a workflow might move from a worker of one Build Id to another.
 *
 * * 'PINNED' - The workflow will be pinned to the current Build ID unless manually moved.
 * * 'AUTO_UPGRADE' - The workflow will automatically move to the latest version (default Build ID
 *    of the task queue) when the next task is dispatched.
 */
exports.VersioningBehavior = {
    PINNED: 'PINNED',
    AUTO_UPGRADE: 'AUTO_UPGRADE',
};
_a = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.VersioningBehavior.PINNED]: 1,
    [exports.VersioningBehavior.AUTO_UPGRADE]: 2,
    UNSPECIFIED: 0,
}, 'VERSIONING_BEHAVIOR_'), exports.encodeVersioningBehavior = _a[0], exports.decodeVersioningBehavior = _a[1];
/**
 * Defines the versioning behavior to be used by the first task of a new workflow run in a continue-as-new chain.
 *
 * AUTO_UPGRADE - Start the new run with AutoUpgrade behavior. Use the Target Version of the workflow's task queue at
 *   start-time, as AutoUpgrade workflows do. After the first workflow task completes, use whatever
 *   Versioning Behavior the workflow is annotated with in the workflow code.
 *
 *   Note that if the previous workflow had a Pinned override, that override will be inherited by the
 *   new workflow run regardless of the ContinueAsNewVersioningBehavior specified in the continue-as-new
 *   command. If a Pinned override is inherited by the new run, and the new run starts with AutoUpgrade
 *   behavior, the base version of the new run will be the Target Version as described above, but the
 *   effective version will be whatever is specified by the Versioning Override until the override is removed.
 *
 * USE_RAMPING_VERSION - Use the Ramping Version of the workflow's task queue at start time, regardless of the workflow's
 *   Target Version (according to f(workflow_id, ramp_percentage)). After the first workflow task completes,
 *   the workflow will use whatever Versioning Behavior it is annotated with. If there is no Ramping
 *   Version by the time that the first workflow task is dispatched, it will be sent to the Current Version.
 *
 *   It is highly discouraged to use this if the workflow is annotated with AutoUpgrade behavior, because
 *   this setting ONLY applies to the first task of the workflow. If, after the first task, the workflow
 *   is AutoUpgrade, it will behave like a normal AutoUpgrade workflow and go to the Target Version, which
 *   may be the Current Version instead of the Ramping Version.
 *
 *   Note that if the workflow being continued has a Pinned override, that override will be inherited by the
 *   new workflow run regardless of the ContinueAsNewVersioningBehavior specified in the continue-as-new
 *   command. Versioning Override always takes precedence until it's removed manually via UpdateWorkflowExecutionOptions.
 *
 * @experimental Versioning semantics with continue-as-new are experimental and may change in the future.
 */
exports.InitialVersioningBehavior = {
    AUTO_UPGRADE: 'AUTO_UPGRADE',
    USE_RAMPING_VERSION: 'USE_RAMPING_VERSION',
};
_b = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.InitialVersioningBehavior.AUTO_UPGRADE]: 1,
    [exports.InitialVersioningBehavior.USE_RAMPING_VERSION]: 2,
    UNSPECIFIED: 0,
}, 'CONTINUE_AS_NEW_VERSIONING_BEHAVIOR_'), exports.encodeInitialVersioningBehavior = _b[0], exports.decodeInitialVersioningBehavior = _b[1];
/**
 * @internal
 */
function convertDeploymentVersion(v) {
    if (!v || !v.buildId) {
        return undefined;
    }
    return {
        buildId: v.buildId,
        deploymentName: v.deploymentName ?? '',
    };
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/workflow-definition-options.js"
/*!****************************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/workflow-definition-options.js ***!
  \****************************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.isWorkflowFunctionWithOptions = isWorkflowFunctionWithOptions;
exports.isWorkflowFunctionWithStaticOptions = isWorkflowFunctionWithStaticOptions;
const workflowDefinitionOptionsProperty = 'workflowDefinitionOptions';
const workflowStaticOptionsProperty = 'staticOptions';
/** @internal */
function isWorkflowFunctionWithOptions(obj) {
    return typeof obj === 'function' && Object.hasOwn(obj, workflowDefinitionOptionsProperty);
}
/** @internal */
function isWorkflowFunctionWithStaticOptions(obj) {
    if (typeof obj !== 'function' || !Object.hasOwn(obj, workflowStaticOptionsProperty)) {
        return false;
    }
    const { staticOptions } = obj;
    return typeof staticOptions === 'object' && staticOptions !== null;
}


/***/ },

/***/ "./node_modules/@temporalio/common/lib/workflow-handle.js"
/*!****************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/workflow-handle.js ***!
  \****************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));


/***/ },

/***/ "./node_modules/@temporalio/common/lib/workflow-options.js"
/*!*****************************************************************!*\
  !*** ./node_modules/@temporalio/common/lib/workflow-options.js ***!
  \*****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var _a, _b;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.decodeWorkflowIdConflictPolicy = exports.encodeWorkflowIdConflictPolicy = exports.WorkflowIdConflictPolicy = exports.decodeWorkflowIdReusePolicy = exports.encodeWorkflowIdReusePolicy = exports.WorkflowIdReusePolicy = void 0;
exports.extractWorkflowTypeAndConfig = extractWorkflowTypeAndConfig;
exports.extractWorkflowType = extractWorkflowType;
const internal_workflow_1 = __webpack_require__(/*! ./internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
const workflow_definition_options_1 = __webpack_require__(/*! ./workflow-definition-options */ "./node_modules/@temporalio/common/lib/workflow-definition-options.js");
/**
 * Defines what happens when trying to start a Workflow with the same ID as a *Closed* Workflow.
 *
 * See {@link WorkflowOptions.workflowIdConflictPolicy} for what happens when trying to start a
 * Workflow with the same ID as a *Running* Workflow.
 *
 * Concept: {@link https://docs.temporal.io/workflow-execution/workflowid-runid#workflow-id-reuse-policy | Workflow Id Reuse Policy}
 *
 * *Note: It is not possible to have two actively running Workflows with the same ID.*
 *
 */
exports.WorkflowIdReusePolicy = {
    /**
     * The Workflow can be started if the previous Workflow is in a Closed state.
     * @default
     */
    ALLOW_DUPLICATE: 'ALLOW_DUPLICATE',
    /**
     * The Workflow can be started if the previous Workflow is in a Closed state that is not Completed.
     */
    ALLOW_DUPLICATE_FAILED_ONLY: 'ALLOW_DUPLICATE_FAILED_ONLY',
    /**
     * The Workflow cannot be started.
     */
    REJECT_DUPLICATE: 'REJECT_DUPLICATE',
    /**
     * Terminate the current Workflow if one is already running; otherwise allow reusing the Workflow ID.
     *
     * @deprecated Use {@link WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE} instead, and
     *             set `WorkflowOptions.workflowIdConflictPolicy` to
     *             {@link WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING}.
     *             When using this option, `WorkflowOptions.workflowIdConflictPolicy` must be left unspecified.
     */
    TERMINATE_IF_RUNNING: 'TERMINATE_IF_RUNNING',
    /// Anything below this line has been deprecated
    /**
     * No need to use this. If a `WorkflowIdReusePolicy` is set to this, or is not set at all, the default value will be used.
     *
     * @deprecated Either leave property `undefined`, or use {@link ALLOW_DUPLICATE} instead.
     */
    WORKFLOW_ID_REUSE_POLICY_UNSPECIFIED: undefined,
    /** @deprecated Use {@link ALLOW_DUPLICATE} instead. */
    WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE: 'ALLOW_DUPLICATE',
    /** @deprecated Use {@link ALLOW_DUPLICATE_FAILED_ONLY} instead. */
    WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY: 'ALLOW_DUPLICATE_FAILED_ONLY',
    /** @deprecated Use {@link REJECT_DUPLICATE} instead. */
    WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE: 'REJECT_DUPLICATE',
    /** @deprecated Use {@link TERMINATE_IF_RUNNING} instead. */
    WORKFLOW_ID_REUSE_POLICY_TERMINATE_IF_RUNNING: 'TERMINATE_IF_RUNNING',
};
_a = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.WorkflowIdReusePolicy.ALLOW_DUPLICATE]: 1,
    [exports.WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY]: 2,
    [exports.WorkflowIdReusePolicy.REJECT_DUPLICATE]: 3,
    [exports.WorkflowIdReusePolicy.TERMINATE_IF_RUNNING]: 4, // eslint-disable-line @typescript-eslint/no-deprecated
    UNSPECIFIED: 0,
}, 'WORKFLOW_ID_REUSE_POLICY_'), exports.encodeWorkflowIdReusePolicy = _a[0], exports.decodeWorkflowIdReusePolicy = _a[1];
/**
 * Defines what happens when trying to start a Workflow with the same ID as a *Running* Workflow.
 *
 * See {@link WorkflowOptions.workflowIdReusePolicy} for what happens when trying to start a Workflow
 * with the same ID as a *Closed* Workflow.
 *
 * *Note: It is never possible to have two _actively running_ Workflows with the same ID.*
 */
exports.WorkflowIdConflictPolicy = {
    /**
     * Do not start a new Workflow. Instead raise a `WorkflowExecutionAlreadyStartedError`.
     */
    FAIL: 'FAIL',
    /**
     * Do not start a new Workflow. Instead return a Workflow Handle for the already Running Workflow.
     */
    USE_EXISTING: 'USE_EXISTING',
    /**
     * Start a new Workflow, terminating the current workflow if one is already running.
     */
    TERMINATE_EXISTING: 'TERMINATE_EXISTING',
};
_b = (0, internal_workflow_1.makeProtoEnumConverters)({
    [exports.WorkflowIdConflictPolicy.FAIL]: 1,
    [exports.WorkflowIdConflictPolicy.USE_EXISTING]: 2,
    [exports.WorkflowIdConflictPolicy.TERMINATE_EXISTING]: 3,
    UNSPECIFIED: 0,
}, 'WORKFLOW_ID_CONFLICT_POLICY_'), exports.encodeWorkflowIdConflictPolicy = _b[0], exports.decodeWorkflowIdConflictPolicy = _b[1];
function extractWorkflowTypeAndConfig(workflowTypeOrFunc, callSiteTypeInfo) {
    if (typeof workflowTypeOrFunc === 'string') {
        return { type: workflowTypeOrFunc, typeInfo: callSiteTypeInfo };
    }
    if (typeof workflowTypeOrFunc === 'function') {
        if (!workflowTypeOrFunc.name) {
            throw new TypeError('Invalid workflow type: the workflow function is anonymous');
        }
        if (callSiteTypeInfo !== undefined) {
            throw new TypeError('Workflow type information cannot be supplied at the call site when using a workflow function. ' +
                'Use defineWorkflowOptions(..., { staticOptions: { typeInfo } }) on the workflow function instead, ' +
                'or pass the workflow type as a string.');
        }
        const definitionTypeInfo = (0, workflow_definition_options_1.isWorkflowFunctionWithStaticOptions)(workflowTypeOrFunc)
            ? workflowTypeOrFunc.staticOptions.typeInfo
            : undefined;
        return {
            type: workflowTypeOrFunc.name,
            typeInfo: definitionTypeInfo,
        };
    }
    throw new TypeError(`Invalid workflow type: expected either a string or a function, got '${typeof workflowTypeOrFunc}'`);
}
function extractWorkflowType(workflowTypeOrFunc) {
    return extractWorkflowTypeAndConfig(workflowTypeOrFunc).type;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/activities.js"
/*!*************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/activities.js ***!
  \*************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.decodeActivityCancellationType = exports.encodeActivityCancellationType = exports.ActivityCancellationType = void 0;
const activity_options_1 = __webpack_require__(/*! @temporalio/common/lib/activity-options */ "./node_modules/@temporalio/common/lib/activity-options.js");
Object.defineProperty(exports, "ActivityCancellationType", { enumerable: true, get: function () { return activity_options_1.ActivityCancellationType; } });
Object.defineProperty(exports, "encodeActivityCancellationType", { enumerable: true, get: function () { return activity_options_1.encodeActivityCancellationType; } });
Object.defineProperty(exports, "decodeActivityCancellationType", { enumerable: true, get: function () { return activity_options_1.decodeActivityCancellationType; } });


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/alea.js"
/*!*******************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/alea.js ***!
  \*******************************************************/
(__unused_webpack_module, exports) {

"use strict";

// A port of an algorithm by Johannes Baagøe <baagoe@baagoe.com>, 2010
// http://baagoe.com/en/RandomMusings/javascript/
// https://github.com/nquinlan/better-random-numbers-for-javascript-mirror
// Original work is under MIT license -
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.Mash = void 0;
exports.alea = alea;
// Copyright (C) 2010 by Johannes Baagøe <baagoe@baagoe.org>
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in
// all copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
// THE SOFTWARE.
// Taken and modified from https://github.com/davidbau/seedrandom/blob/released/lib/alea.js
class Alea {
    c;
    s0;
    s1;
    s2;
    constructor(seed) {
        const mash = new Mash();
        // Apply the seeding algorithm from Baagoe.
        this.c = 1;
        this.s0 = mash.mash([32]);
        this.s1 = mash.mash([32]);
        this.s2 = mash.mash([32]);
        this.s0 -= mash.mash(seed);
        if (this.s0 < 0) {
            this.s0 += 1;
        }
        this.s1 -= mash.mash(seed);
        if (this.s1 < 0) {
            this.s1 += 1;
        }
        this.s2 -= mash.mash(seed);
        if (this.s2 < 0) {
            this.s2 += 1;
        }
    }
    next() {
        const t = 2091639 * this.s0 + this.c * 2.3283064365386963e-10; // 2^-32
        this.s0 = this.s1;
        this.s1 = this.s2;
        return (this.s2 = t - (this.c = t | 0));
    }
}
function alea(seed) {
    const xg = new Alea(seed);
    return xg.next.bind(xg);
}
class Mash {
    n = 0xefc8249d;
    mash(data) {
        let { n } = this;
        for (let i = 0; i < data.length; i++) {
            n += data[i];
            let h = 0.02519603282416938 * n;
            n = h >>> 0;
            h -= n;
            h *= n;
            n = h >>> 0;
            h -= n;
            n += h * 0x100000000; // 2^32
        }
        this.n = n;
        return (n >>> 0) * 2.3283064365386963e-10; // 2^-32
    }
}
exports.Mash = Mash;


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js"
/*!*********************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/cancellation-scope.js ***!
  \*********************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.RootCancellationScope = exports.CancellationScope = exports.AsyncLocalStorage = void 0;
exports.registerSleepImplementation = registerSleepImplementation;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const time_1 = __webpack_require__(/*! @temporalio/common/lib/time */ "./node_modules/@temporalio/common/lib/time.js");
const stack_helpers_1 = __webpack_require__(/*! ./stack-helpers */ "./node_modules/@temporalio/workflow/lib/stack-helpers.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const flags_1 = __webpack_require__(/*! ./flags */ "./node_modules/@temporalio/workflow/lib/flags.js");
// AsyncLocalStorage is injected via vm module into global scope.
// In case Workflow code is imported in Node.js context, replace with an empty class.
exports.AsyncLocalStorage = globalThis.AsyncLocalStorage ?? class {
};
/** Magic symbol used to create the root scope - intentionally not exported */
const NO_PARENT = Symbol('NO_PARENT');
/**
 * Cancellation Scopes provide the mechanic by which a Workflow may gracefully handle incoming requests for cancellation
 * (e.g. in response to {@link WorkflowHandle.cancel} or through the UI or CLI), as well as request cancellation of
 * cancellable operations it owns (e.g. Activities, Timers, Child Workflows, etc).
 *
 * Cancellation Scopes form a tree, with the Workflow's main function running in the root scope of that tree.
 * By default, cancellation propagates down from a parent scope to its children and its cancellable operations.
 * A non-cancellable scope can receive cancellation requests, but is never effectively considered as cancelled,
 * thus shieldding its children and cancellable operations from propagation of cancellation requests it receives.
 *
 * Scopes are created using the `CancellationScope` constructor or the static helper methods {@link cancellable},
 * {@link nonCancellable} and {@link withTimeout}. `withTimeout` creates a scope that automatically cancels itself after
 * some duration.
 *
 * Cancellation of a cancellable scope results in all operations created directly in that scope to throw a
 * {@link CancelledFailure} (either directly, or as the `cause` of an {@link ActivityFailure} or a
 * {@link ChildWorkflowFailure}). Further attempt to create new cancellable scopes or cancellable operations within a
 * scope that has already been cancelled will also immediately throw a {@link CancelledFailure} exception. It is however
 * possible to create a non-cancellable scope at that point; this is often used to execute rollback or cleanup
 * operations. For example:
 *
 * ```ts
 * async function myWorkflow(...): Promise<void> {
 *   try {
 *     // This activity runs in the root cancellation scope. Therefore, a cancellation request on
 *     // the Workflow execution (e.g. through the UI or CLI) automatically propagates to this
 *     // activity. Assuming that the activity properly handle the cancellation request, then the
 *     // call below will throw an `ActivityFailure` exception, with `cause` sets to an
 *     // instance of `CancelledFailure`.
 *     await someActivity();
 *   } catch (e) {
 *     if (isCancellation(e)) {
 *       // Run cleanup activity in a non-cancellable scope
 *       await CancellationScope.nonCancellable(async () => {
 *         await cleanupActivity();
 *       }
 *     } else {
 *       throw e;
 *     }
 *   }
 * }
 * ```
 *
 * A cancellable scope may be programatically cancelled by calling {@link cancel|`scope.cancel()`}`. This may be used,
 * for example, to explicitly request cancellation of an Activity or Child Workflow:
 *
 * ```ts
 * const cancellableActivityScope = new CancellationScope();
 * const activityPromise = cancellableActivityScope.run(() => someActivity());
 * cancellableActivityScope.cancel(); // Cancels the activity
 * await activityPromise; // Throws `ActivityFailure` with `cause` set to `CancelledFailure`
 * ```
 */
class CancellationScope {
    /**
     * Time in milliseconds before the scope cancellation is automatically requested
     */
    timeout;
    /**
     * If false, then this scope will never be considered cancelled, even if a cancellation request is received (either
     * directly by calling `scope.cancel()` or indirectly by cancelling a cancellable parent scope). This effectively
     * shields the scope's children and cancellable operations from propagation of cancellation requests made on the
     * non-cancellable scope.
     *
     * Note that the Promise returned by the `run` function of non-cancellable scope may still throw a `CancelledFailure`
     * if such an exception is thrown from within that scope (e.g. by directly cancelling a cancellable child scope).
     */
    cancellable;
    /**
     * An optional CancellationScope (useful for running background tasks), defaults to {@link CancellationScope.current}()
     */
    parent;
    /**
     * A Promise that throws when a cancellable scope receives a cancellation request, either directly
     * (i.e. `scope.cancel()`), or indirectly (by cancelling a cancellable parent scope).
     *
     * Note that a non-cancellable scope may receive cancellation requests, resulting in the `cancelRequested` promise for
     * that scope to throw, though the scope will not effectively get cancelled (i.e. `consideredCancelled` will still
     * return `false`, and cancellation will not be propagated to child scopes and contained operations).
     */
    cancelRequested;
    #cancelRequested = false;
    // Typescript does not understand that the Promise executor runs synchronously in the constructor
    // eslint-disable-next-line @typescript-eslint/ban-ts-comment
    // @ts-ignore
    reject;
    constructor(options) {
        this.timeout = (0, time_1.msOptionalToNumber)(options?.timeout);
        this.cancellable = options?.cancellable ?? true;
        this.cancelRequested = new Promise((_, reject) => {
            // @ts-expect-error TSC doesn't understand that the Promise executor runs synchronously
            this.reject = (err) => {
                this.#cancelRequested = true;
                reject(err);
            };
        });
        (0, stack_helpers_1.untrackPromise)(this.cancelRequested);
        // Avoid unhandled rejections
        (0, stack_helpers_1.untrackPromise)(this.cancelRequested.catch(() => undefined));
        if (options?.parent !== NO_PARENT) {
            this.parent = options?.parent || CancellationScope.current();
            if (this.parent.cancellable ||
                (this.parent.#cancelRequested &&
                    !(0, global_attributes_1.getActivator)().hasFlag(flags_1.SdkFlags.NonCancellableScopesAreShieldedFromPropagation))) {
                this.#cancelRequested = this.parent.#cancelRequested;
                (0, stack_helpers_1.untrackPromise)(this.parent.cancelRequested.catch((err) => {
                    this.reject(err);
                }));
            }
            else {
                (0, stack_helpers_1.untrackPromise)(this.parent.cancelRequested.catch((err) => {
                    if (!(0, global_attributes_1.getActivator)().hasFlag(flags_1.SdkFlags.NonCancellableScopesAreShieldedFromPropagation)) {
                        this.reject(err);
                    }
                }));
            }
        }
    }
    /**
     * Whether the scope was effectively cancelled. A non-cancellable scope can never be considered cancelled.
     */
    get consideredCancelled() {
        return this.#cancelRequested && this.cancellable;
    }
    /**
     * Activate the scope as current and run  `fn`
     *
     * Any timers, Activities, Triggers and CancellationScopes created in the body of `fn`
     * automatically link their cancellation to this scope.
     *
     * @return the result of `fn`
     */
    run(fn) {
        return storage.run(this, this.runInContext.bind(this, fn));
    }
    /**
     * Method that runs a function in AsyncLocalStorage context.
     *
     * Could have been written as anonymous function, made into a method for improved stack traces.
     */
    async runInContext(fn) {
        let timerScope;
        if (this.timeout) {
            timerScope = new CancellationScope();
            (0, stack_helpers_1.untrackPromise)(timerScope
                .run(() => sleep(this.timeout))
                .then(() => this.cancel(), () => {
                // scope was already cancelled, ignore
            }));
        }
        try {
            return await fn();
        }
        finally {
            if (timerScope &&
                !timerScope.consideredCancelled &&
                (0, global_attributes_1.getActivator)().hasFlag(flags_1.SdkFlags.NonCancellableScopesAreShieldedFromPropagation)) {
                timerScope.cancel();
            }
        }
    }
    /**
     * Request to cancel the scope and linked children
     */
    cancel() {
        this.reject(new common_1.CancelledFailure('Cancellation scope cancelled'));
    }
    /**
     * Get the current "active" scope
     */
    static current() {
        // Using globals directly instead of a helper function to avoid circular import
        return storage.getStore() ?? globalThis.__TEMPORAL_ACTIVATOR__.rootScope;
    }
    /** Alias to `new CancellationScope({ cancellable: true }).run(fn)` */
    static cancellable(fn) {
        return new this({ cancellable: true }).run(fn);
    }
    /** Alias to `new CancellationScope({ cancellable: false }).run(fn)` */
    static nonCancellable(fn) {
        return new this({ cancellable: false }).run(fn);
    }
    /** Alias to `new CancellationScope({ cancellable: true, timeout }).run(fn)` */
    static withTimeout(timeout, fn) {
        return new this({ cancellable: true, timeout }).run(fn);
    }
}
exports.CancellationScope = CancellationScope;
const storage = new exports.AsyncLocalStorage();
class RootCancellationScope extends CancellationScope {
    constructor() {
        super({ cancellable: true, parent: NO_PARENT });
    }
    cancel() {
        this.reject(new common_1.CancelledFailure('Workflow cancelled'));
    }
}
exports.RootCancellationScope = RootCancellationScope;
/** This function is here to avoid a circular dependency between this module and workflow.ts */
let sleep = (_) => {
    throw new common_1.IllegalStateError('Workflow has not been properly initialized');
};
function registerSleepImplementation(fn) {
    sleep = fn;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/current-random.js"
/*!*****************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/current-random.js ***!
  \*****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.currentRandom = currentRandom;
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
function currentRandom() {
    return (0, global_attributes_1.assertInWorkflowContext)('Workflow random APIs may only be used from workflow context.').currentRandom();
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/errors.js"
/*!*********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/errors.js ***!
  \*********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.LocalActivityDoBackoff = exports.DeterminismViolationError = exports.WorkflowError = void 0;
exports.isCancellation = isCancellation;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const type_helpers_1 = __webpack_require__(/*! @temporalio/common/lib/type-helpers */ "./node_modules/@temporalio/common/lib/type-helpers.js");
/**
 * Base class for all workflow errors
 */
let WorkflowError = class WorkflowError extends Error {
};
exports.WorkflowError = WorkflowError;
exports.WorkflowError = WorkflowError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('WorkflowError')
], WorkflowError);
/**
 * Thrown in workflow when it tries to do something that non-deterministic such as construct a WeakRef()
 */
let DeterminismViolationError = class DeterminismViolationError extends WorkflowError {
};
exports.DeterminismViolationError = DeterminismViolationError;
exports.DeterminismViolationError = DeterminismViolationError = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('DeterminismViolationError')
], DeterminismViolationError);
/**
 * A class that acts as a marker for this special result type
 */
let LocalActivityDoBackoff = class LocalActivityDoBackoff extends Error {
    backoff;
    constructor(backoff) {
        super();
        this.backoff = backoff;
    }
};
exports.LocalActivityDoBackoff = LocalActivityDoBackoff;
exports.LocalActivityDoBackoff = LocalActivityDoBackoff = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('LocalActivityDoBackoff')
], LocalActivityDoBackoff);
/**
 * Returns whether provided `err` is caused by cancellation
 */
function isCancellation(err) {
    return (err instanceof common_1.CancelledFailure ||
        ((err instanceof common_1.ActivityFailure || err instanceof common_1.ChildWorkflowFailure || err instanceof common_1.NexusOperationFailure) &&
            err.cause instanceof common_1.CancelledFailure));
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/event-groups.js"
/*!***************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/event-groups.js ***!
  \***************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.createEventGroup = createEventGroup;
exports.createInboundEventMarker = createInboundEventMarker;
exports.createInboundUpdateMarker = createInboundUpdateMarker;
exports.eventGroupMarkersToProto = eventGroupMarkersToProto;
const payload_converter_1 = __webpack_require__(/*! @temporalio/common/lib/converter/payload-converter */ "./node_modules/@temporalio/common/lib/converter/payload-converter.js");
const cancellation_scope_1 = __webpack_require__(/*! ./cancellation-scope */ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const sha1_1 = __webpack_require__(/*! ./sha1 */ "./node_modules/@temporalio/workflow/lib/sha1.js");
/** Active event group markers in the current execution scope. */
const activeMarkerScopes = new cancellation_scope_1.AsyncLocalStorage();
class EventGroupMarkerImpl {
    withScope(fn) {
        (0, global_attributes_1.assertInWorkflowContext)('EventGroupMarker.withScope(...) may only be used from a Workflow Execution');
        const active = activeMarkerScopes.getStore() ?? {
            implicitScope: undefined,
            explicitScopes: {},
        };
        const newActive = this.applyOverActiveMarkerScopes(active);
        return activeMarkerScopes.run(newActive, fn);
    }
}
class ImplicitEventGroupMarkerImpl extends EventGroupMarkerImpl {
    marker;
    static withInboundEventId(eventId) {
        return new ImplicitEventGroupMarkerImpl({ inboundEvent: { inboundEventId: eventId } });
    }
    static withInboundUpdateId(updateId) {
        return new ImplicitEventGroupMarkerImpl({ inboundUpdate: { inboundUpdateId: updateId } });
    }
    constructor(marker) {
        super();
        this.marker = marker;
    }
    applyOverActiveMarkerScopes(_active) {
        return {
            implicitScope: this,
            explicitScopes: {},
        };
    }
    toProto() {
        return {
            inboundEvent: this.marker.inboundEvent
                ? {
                    inboundEventId: this.marker.inboundEvent?.inboundEventId,
                }
                : undefined,
            inboundUpdate: this.marker.inboundUpdate
                ? {
                    inboundUpdateId: this.marker.inboundUpdate?.inboundUpdateId,
                }
                : undefined,
        };
    }
}
/**
 * This stub provides a safe fallback for the case where we'd try to create an Implicit
 * Event Group Marker for an inbound event, but receive an invalid event ID.
 *
 * To be clear, this should never happen and would indicate a bug in the SDK itself.
 * Still, we wouldn't want that situation to result in failing the WFT, as Event Groups
 * is a non-critical feature.
 *
 * Instead, we return a stub Implicit Event Group Marker that honors the interface,
 * including the `withScope()` method with proper bookkeeping logic. This way, callers
 * can proceed through their normal code path without having to know about this anomaly.
 */
class StubImplicitEventGroupMarkerImpl extends EventGroupMarkerImpl {
    constructor() {
        super();
    }
    applyOverActiveMarkerScopes(_active) {
        return {
            implicitScope: undefined,
            explicitScopes: {},
        };
    }
    toProto() {
        // This method will never get called, since the stub will not set itself as
        // the active implicit scope, and therefore won't get collected by
        // mergeScopeAndDirectEventGroupMarkers() for serialization.
        return {};
    }
}
class ExplicitEventGroupMarkerImpl extends EventGroupMarkerImpl {
    marker;
    static withLabel(label, id) {
        return new ExplicitEventGroupMarkerImpl({ label: { id, label } });
    }
    constructor(marker) {
        super();
        this.marker = marker;
    }
    applyOverActiveMarkerScopes(active) {
        return {
            implicitScope: active.implicitScope,
            explicitScopes: { ...active.explicitScopes, [this.marker.label.id]: this },
        };
    }
    toProto() {
        // Deliberately the SDK's default converter rather than the workflow's own: the UI and CLI
        // rely on the label being a `json/plain` string, which a user-provided converter could break.
        return {
            label: { id: this.marker.label.id, label: payload_converter_1.defaultPayloadConverter.toPayload(this.marker.label.label) },
        };
    }
}
/**
 * Create a new event group marker that can be attached to commands scheduled by this workflow.
 *
 * The returned marker has a freshly-generated identifier (workflow-deterministic). Attach it
 * to any number of commands (activities, child workflows, timers, etc.) via their `eventGroups`
 * option, or implicitly via {@link EventGroupMarker.withScope}, to indicate that those commands
 * belong to the same logical group.
 *
 * @param label a user-visible label for the group, surfaced in the UI / CLI
 *     This label is converted to a Payload using the SDK's default Payload Converter, not the
 *     one configured on the worker, then codec-encoded using the worker's configured Payload
 *     Codecs.
 *
 *     Note that if no `id` is provided, the `id` will be derived from the `label` using a
 *     deterministic hash function. Given short and predictable labels, brute-forcing the `id`'s
 *     hashed value may be computationally feasible, thus allowing for recovery of the `label`
 *     value. Thus, it is recommended to avoid including highly sensitive information in
 *     event-group labels, and/or to provide an explicit `id` value.
 *
 * @param id an optional opaque identifier used to determine whether two event groups are the same;
 *     i.e. events will be grouped together if and only if they are both associated with group
 *     markers that have the same `id` value, without regard to the markers' labels. Only the first
 *     label value associated with a marker `id` will be used, subsequent label values will be ignored.
 *
 *     Note that `id` will not be codec-encoded.
 *
 * @experimental Event Groups is an experimental API and may change without notice.
 */
function createEventGroup(label, options) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('createEventGroup(...) may only be used from a Workflow Execution');
    // When the workflow author doesn't provide an explicit `id`, derive a deterministic, replay-stable
    // one from the label. The Original Execution Run ID is used to mitigate brute-force recovery of the
    // label from the ID, while preserving resetstability across Workflow Execution resets.
    const id = options?.id ?? (0, sha1_1.sha1Hex)(`${activator.info.originalExecutionRunId}${label}`);
    return ExplicitEventGroupMarkerImpl.withLabel(label, id);
}
/**
 * Create an implicit group marker referencing a specific history event by ID. Used by the
 * SDK at the signal handler dispatch point; never exposed to user code.
 *
 * @internal
 */
function createInboundEventMarker(eventId) {
    if (eventId == null || eventId.toNumber() <= 0) {
        // Invalid event ID. Don't fail the WFT — return a stub Implicit EG Marker instead.
        return new StubImplicitEventGroupMarkerImpl();
    }
    return ImplicitEventGroupMarkerImpl.withInboundEventId(eventId);
}
/**
 * Create an implicit group marker referencing an inbound update by its workflow-unique
 * identifier. Used by the SDK at the update-handler dispatch point; never exposed to user
 * code.
 *
 * @internal
 */
function createInboundUpdateMarker(updateId) {
    return ImplicitEventGroupMarkerImpl.withInboundUpdateId(updateId);
}
/**
 * Merge the explicitly-attached markers with those active in the current execution scope and
 * serialize the result into the proto form attached to a workflow command.
 *
 * This function reads the active-scope markers from AsyncLocalStorage, and may therefore only be
 * called from within a Workflow Execution.
 *
 * Returns `undefined` if no marker ends up attached, so the caller can omit the `eventGroupMarkers`
 * field from the outgoing command altogether (matching the convention used for `userMetadata`).
 *
 * Each marker is encoded as one of the `EventGroupMarker.variant` cases: the `label` variant
 * (for explicit markers created via `createEventGroup`), the `inboundEvent` variant, or the
 * `inboundUpdate` variant (for implicit markers created by the SDK around inbound signal and
 * update handlers).
 *
 * The SDK `id` is only carried on the wire for the `label` variant. For inbound variants it is
 * derivable from `inboundEventId` / `inboundUpdateId`, so it is omitted.
 *
 * @internal
 */
function eventGroupMarkersToProto(explicit) {
    const markers = mergeScopeAndDirectEventGroupMarkers(explicit);
    if (markers == null || markers.length === 0)
        return undefined;
    return markers.map((marker) => marker.toProto());
}
/**
 * Merge active scope event group markers with directly-attached markers, deduplicating by `id`.
 */
function mergeScopeAndDirectEventGroupMarkers(directs) {
    if (directs?.some((m) => !(m instanceof ExplicitEventGroupMarkerImpl))) {
        throw new Error('Directly attached Event Group Markers must be instances of ExplicitEventGroupMarkerImpl');
    }
    const directExplicits = directs ?? [];
    const active = activeMarkerScopes.getStore();
    const merged = { ...(active?.explicitScopes ?? {}) };
    for (const marker of directExplicits) {
        merged[marker.marker.label.id] = marker;
    }
    return [...(active?.implicitScope ? [active.implicitScope] : []), ...Object.values(merged)];
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/flags.js"
/*!********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/flags.js ***!
  \********************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.SdkFlags = void 0;
exports.assertValidFlag = assertValidFlag;
const flagsRegistry = new Map();
exports.SdkFlags = {
    /**
     * This flag gates multiple fixes related to cancellation scopes and timers introduced in 1.10.2/1.11.0:
     * - Cancellation of a non-cancellable scope no longer propagates to children scopes
     *   (see https://github.com/temporalio/sdk-typescript/issues/1423).
     * - CancellationScope.withTimeout(fn) now cancel the timer if `fn` completes before expiration
     *   of the timeout, similar to how `condition(fn, timeout)` works.
     * - Timers created using setTimeout can now be intercepted.
     *
     * @since Introduced in 1.10.2/1.11.0. However, due to an SDK bug, SDKs v1.11.0 and v1.11.1 were not
     *        properly writing back the flags to history, possibly resulting in NDE on replay. We therefore
     *        consider that a WFT emitted by Worker v1.11.0 or v1.11.1 to implicitly have this flag on.
     */
    NonCancellableScopesAreShieldedFromPropagation: defineFlag(1, true, [buildIdSdkVersionMatches(/1\.11\.[01]/)]),
    /**
     * Prior to 1.11.0, when processing a Workflow activation, the SDK would execute `notifyHasPatch`
     * and `signalWorkflow` jobs in distinct phases, before other types of jobs. The primary reason
     * behind that multi-phase algorithm was to avoid the possibility that a Workflow execution might
     * complete before all incoming signals have been dispatched (at least to the point that the
     * _synchronous_ part of the handler function has been executed).
     *
     * This flag replaces that multi-phase algorithm with a simpler one where jobs are simply sorted as
     * `(signals and updates) -> others`, but without processing them as distinct batches (i.e. without
     * leaving/reentering the VM context between each group, which automatically triggers the execution
     * of all outstanding microtasks). That single-phase approach resolves a number of quirks of the
     * former algorithm, and yet still satisfies to the original requirement of ensuring that every
     * `signalWorkflow` jobs - and now `doUpdate` jobs as well - have been given a proper chance to
     * execute before the Workflow main function might completes.
     *
     * @since Introduced in 1.11.0. This change is not rollback-safe. However, due to an SDK bug, SDKs
     *        v1.11.0 and v1.11.1 were not properly writing back the flags to history, possibly resulting
     *        in NDE on replay. We therefore consider that a WFT emitted by Worker v1.11.0 or v1.11.1
     *        to implicitely have this flag on.
     */
    ProcessWorkflowActivationJobsAsSingleBatch: defineFlag(2, true, [buildIdSdkVersionMatches(/1\.11\.[01]/)]),
    /**
     * In 1.11.5 the `handleSignal` interceptor was added to @temporalio/interceptors-opentelemetry
     * which added a yield point. The added yield point can cause NDE if there was a signal handler and
     * the workflow was started with a signal.
     *
     * This yield point was removed in 1.13.2, but in order to prevent workflows from the
     * affected versions resulting in NDE, we have to inject the yield point on replay.
     * @since Introduced in 1.13.2.
     */
    OpenTelemetryInterceptorsTracesInboundSignals: defineFlag(3, true, [isAtLeast({ major: 1, minor: 11, patch: 5 })]),
    /**
     * In 1.11.6, the `scheduleLocalActivity` interceptor was added to
     * `@temporalio/interceptors-opentelemetry` which added a yield point to the
     * outbound interceptor. This yield point was removed in 1.13.2.
     *
     * @since Introduced in 1.13.2
     */
    OpenTelemetryInterceptorsTracesLocalActivities: defineFlag(4, true, [isAtLeast({ major: 1, minor: 11, patch: 6 })]),
    /**
     * The interceptors provided by @temporalio/interceptors-opentelemetry initially had unnecessary
     * yield points on calling to `extractContextFromHeaders`.
     * If replaying a workflow created from these versions a yield point is injected to prevent any NDE.
     *
     * If the history does not include the SDK version, default to extra yields since the yields were present since the OTEL
     * package was created.
     *
     * @since Introduced in 1.13.2
     */
    OpenTelemetryInterceporsAvoidsExtraYields: defineFlag(5, true, [isAtLeast({ major: 1, minor: 13, patch: 2 })]),
    /**
     * In 1.13.3, all remaining interceptor methods were implemented in @temporalio/interceptors-opentelemetry
     * including `handleUpdate`, `validateUpdate`, `handleQuery`, `startTimer`, and `startNexusOperation`.
     * These add instrumentation and yield points that were not present in earlier versions.
     * This flag gates these new interceptor methods to prevent NDE on replay of workflows from earlier versions.
     *
     * @since Introduced in 1.13.3
     */
    OpenTelemetryInterceptorsInstrumentsAllMethods: defineFlag(6, true),
};
function defineFlag(id, def, alternativeConditions) {
    const flag = { id, default: def, alternativeConditions };
    flagsRegistry.set(id, flag);
    return flag;
}
function assertValidFlag(id) {
    if (!flagsRegistry.has(id))
        throw new TypeError(`Unknown SDK flag: ${id}`);
}
function buildIdSdkVersionMatches(version) {
    const regex = new RegExp(`^@temporalio/worker@(${version.source})[+]`);
    return ({ info }) => info.currentBuildId != null && regex.test(info.currentBuildId);
}
/**
 * Creates an `AltConditionFn` that checks if the SDK version is equal to or after the provided version.
 * An optional default can be provided in case the SDK version is not available.
 */
function isAtLeast(compare, missingDefault) {
    return (ctx) => {
        return isCompared(compare, -1, missingDefault)(ctx) || isCompared(compare, 0, missingDefault)(ctx);
    };
}
function isCompared(compare, comparison, missingDefault = false) {
    return ({ sdkVersion }) => {
        if (!sdkVersion)
            return missingDefault;
        const version = parseSemver(sdkVersion);
        if (!version)
            return missingDefault;
        return compareSemver(compare, version) === comparison;
    };
}
function parseSemver(version) {
    try {
        const [_, major, minor, patch] = version.match(/(\d+)\.(\d+)\.(\d+)/);
        return {
            major: Number.parseInt(major),
            minor: Number.parseInt(minor),
            patch: Number.parseInt(patch),
        };
    }
    catch {
        return undefined;
    }
}
function compareSemver(a, b) {
    if (a.major < b.major)
        return -1;
    if (a.major > b.major)
        return +1;
    if (a.minor < b.minor)
        return -1;
    if (a.minor > b.minor)
        return +1;
    if (a.patch < b.patch)
        return -1;
    if (a.patch > b.patch)
        return +1;
    return 0;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/global-attributes.js"
/*!********************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/global-attributes.js ***!
  \********************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.getActivator = void 0;
exports.setActivator = setActivator;
exports.maybeGetActivator = maybeGetActivator;
exports.assertInWorkflowContext = assertInWorkflowContext;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
function setActivator(activator) {
    globalThis.__TEMPORAL_ACTIVATOR__ = activator;
}
function maybeGetActivator() {
    return globalThis.__TEMPORAL_ACTIVATOR__;
}
function assertInWorkflowContext(uninitializedErrorMessage) {
    const activator = maybeGetActivator();
    if (activator == null)
        throw new common_1.IllegalStateError(uninitializedErrorMessage);
    return activator;
}
// This is really just an alias for `assertInWorkflowContext` with a default error message,
// because that name better conveys the intent in some very common use cases.
exports.getActivator = assertInWorkflowContext.bind(null, 'Workflow uninitialized');


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/global-overrides.js"
/*!*******************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/global-overrides.js ***!
  \*******************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.overrideGlobals = overrideGlobals;
/**
 * Overrides some global objects to make them deterministic.
 *
 * @module
 */
const time_1 = __webpack_require__(/*! @temporalio/common/lib/time */ "./node_modules/@temporalio/common/lib/time.js");
const cancellation_scope_1 = __webpack_require__(/*! ./cancellation-scope */ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js");
const current_random_1 = __webpack_require__(/*! ./current-random */ "./node_modules/@temporalio/workflow/lib/current-random.js");
const errors_1 = __webpack_require__(/*! ./errors */ "./node_modules/@temporalio/workflow/lib/errors.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const flags_1 = __webpack_require__(/*! ./flags */ "./node_modules/@temporalio/workflow/lib/flags.js");
const workflow_1 = __webpack_require__(/*! ./workflow */ "./node_modules/@temporalio/workflow/lib/workflow.js");
const stack_helpers_1 = __webpack_require__(/*! ./stack-helpers */ "./node_modules/@temporalio/workflow/lib/stack-helpers.js");
const global = globalThis;
const OriginalDate = globalThis.Date;
function overrideGlobals() {
    // Mock any weak reference because GC is non-deterministic and the effect is observable from the Workflow.
    // Workflow developer will get a meaningful exception if they try to use these.
    global.WeakRef = function () {
        throw new errors_1.DeterminismViolationError('WeakRef cannot be used in Workflows because v8 GC is non-deterministic');
    };
    global.FinalizationRegistry = function () {
        throw new errors_1.DeterminismViolationError('FinalizationRegistry cannot be used in Workflows because v8 GC is non-deterministic');
    };
    global.Date = function (...args) {
        if (args.length > 0) {
            return new OriginalDate(...args);
        }
        return new OriginalDate((0, global_attributes_1.getActivator)().now);
    };
    global.Date.now = function () {
        return (0, global_attributes_1.getActivator)().now;
    };
    global.Date.parse = OriginalDate.parse.bind(OriginalDate);
    global.Date.UTC = OriginalDate.UTC.bind(OriginalDate);
    global.Date.prototype = OriginalDate.prototype;
    const timeoutCancellationScopes = new Map();
    /**
     * @param ms sleep duration -  number of milliseconds. If given a negative number, value will be set to 1.
     */
    global.setTimeout = function (cb, ms, ...args) {
        ms = Math.max(1, ms);
        const activator = (0, global_attributes_1.getActivator)();
        if (activator.hasFlag(flags_1.SdkFlags.NonCancellableScopesAreShieldedFromPropagation)) {
            // Capture the sequence number that sleep will allocate
            const seq = activator.nextSeqs.timer;
            const timerScope = new cancellation_scope_1.CancellationScope({ cancellable: true });
            const sleepPromise = timerScope.run(() => (0, workflow_1.sleep)(ms));
            sleepPromise.then(() => {
                timeoutCancellationScopes.delete(seq);
                cb(...args);
            }, () => {
                timeoutCancellationScopes.delete(seq);
            });
            (0, stack_helpers_1.untrackPromise)(sleepPromise);
            timeoutCancellationScopes.set(seq, timerScope);
            return seq;
        }
        else {
            const seq = activator.nextSeqs.timer++;
            // Create a Promise for AsyncLocalStorage to be able to track this completion using promise hooks.
            new Promise((resolve, reject) => {
                activator.completions.timer.set(seq, { resolve, reject });
                activator.pushCommand({
                    startTimer: {
                        seq,
                        startToFireTimeout: (0, time_1.msToTs)(ms),
                    },
                });
            }).then(() => cb(...args), () => undefined /* ignore cancellation */);
            return seq;
        }
    };
    global.clearTimeout = function (handle) {
        const activator = (0, global_attributes_1.getActivator)();
        const timerScope = timeoutCancellationScopes.get(handle);
        if (timerScope) {
            timeoutCancellationScopes.delete(handle);
            timerScope.cancel();
        }
        else {
            activator.nextSeqs.timer++; // Shouldn't increase seq number, but that's the legacy behavior
            activator.completions.timer.delete(handle);
            activator.pushCommand({
                cancelTimer: {
                    seq: handle,
                },
            });
        }
    };
    // currentRandom() dispatches to a scoped stream when WorkflowRandomStream.with(...) is active.
    Math.random = current_random_1.currentRandom;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/index.js"
/*!********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/index.js ***!
  \********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

/**
 * This library provides tools required for authoring workflows.
 *
 * ## Usage
 * See the {@link https://docs.temporal.io/typescript/hello-world#workflows | tutorial} for writing your first workflow.
 *
 * ### Timers
 *
 * The recommended way of scheduling timers is by using the {@link sleep} function. We've replaced `setTimeout` and
 * `clearTimeout` with deterministic versions so these are also usable but have a limitation that they don't play well
 * with {@link https://docs.temporal.io/typescript/cancellation-scopes | cancellation scopes}.
 *
 * ```ts
 * import { sleep } from '@temporalio/workflow';
 *
 * export async function sleeper(ms = 100): Promise<void> {
 *   await sleep(ms);
 *   console.log('slept');
 * }
 * ```
 *
 * ### Activities
 *
 * To schedule Activities, use {@link proxyActivities} to obtain an Activity function and call.
 *
 * ```ts
 * import { proxyActivities } from '@temporalio/workflow';
 * import type * as activities from './activities';
 *
 * const { sendEmail } = proxyActivities<typeof activities>({
 *   startToCloseTimeout: '1 minute',
 * });

export async function sampleWorkflow(): Promise<string> {
  await sendEmail("to@example.com","Hello, Temporal!");
}

 * ```
 *
 * ### Updates, Signals and Queries
 *
 * Use {@link setHandler} to set handlers for Updates, Signals, and Queries.
 *
 * Update and Signal handlers can be either async or non-async functions. Update handlers may return a value, but signal
 * handlers may not (return `void` or `Promise<void>`). You may use Activities, Timers, child Workflows, etc in Update
 * and Signal handlers, but this should be done cautiously: for example, note that if you await async operations such as
 * these in an Update or Signal handler, then you are responsible for ensuring that the workflow does not complete first.
 *
 * Query handlers may **not** be async functions, and may **not** mutate any variables or use Activities, Timers,
 * child Workflows, etc.
 *
 * #### Implementation
 *
 * ```ts
 * export const incrementSignal = wf.defineSignal<[number]>('increment');
 * export const getValueQuery = wf.defineQuery<number>('getValue');
 * export const incrementAndGetValueUpdate = wf.defineUpdate<number, [number]>('incrementAndGetValue');
 *
 * export async function counterWorkflow(initialValue: number): Promise<void> {
 *   let count = initialValue;
 *   wf.setHandler(incrementSignal, (arg: number) => {
 *     count += arg;
 *   });
 *   wf.setHandler(getValueQuery, () => count);
 *   wf.setHandler(incrementAndGetValueUpdate, (arg: number): number => {
 *     count += arg;
 *     return count;
 *   });
 *   await wf.condition(() => false);
 * }
 * ```
 *
 * ### More
 *
 * - [Deterministic built-ins](https://docs.temporal.io/typescript/determinism#sources-of-non-determinism)
 * - [Cancellation and scopes](https://docs.temporal.io/typescript/cancellation-scopes)
 *   - {@link CancellationScope}
 *   - {@link Trigger}
 * - [Sinks](https://docs.temporal.io/application-development/observability/?lang=ts#logging)
 *   - {@link Sinks}
 *
 * @module
 */
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.NexusOperationCancellationType = exports.createNexusServiceClient = exports.metricMeter = exports.createEventGroup = exports.Trigger = exports.log = exports.workflowRandom = exports.getRandomStream = exports.proxySinks = exports.ParentClosePolicy = exports.ContinueAsNew = exports.ChildWorkflowCancellationType = exports.CancellationScope = exports.AsyncLocalStorage = exports.TimeoutFailure = exports.TerminatedFailure = exports.TemporalFailure = exports.ServerFailure = exports.rootCause = exports.defaultPayloadConverter = exports.ChildWorkflowFailure = exports.CancelledFailure = exports.ApplicationFailure = exports.ActivityFailure = exports.ActivityCancellationType = void 0;
var activities_1 = __webpack_require__(/*! ./activities */ "./node_modules/@temporalio/workflow/lib/activities.js");
Object.defineProperty(exports, "ActivityCancellationType", ({ enumerable: true, get: function () { return activities_1.ActivityCancellationType; } }));
var common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
Object.defineProperty(exports, "ActivityFailure", ({ enumerable: true, get: function () { return common_1.ActivityFailure; } }));
Object.defineProperty(exports, "ApplicationFailure", ({ enumerable: true, get: function () { return common_1.ApplicationFailure; } }));
Object.defineProperty(exports, "CancelledFailure", ({ enumerable: true, get: function () { return common_1.CancelledFailure; } }));
Object.defineProperty(exports, "ChildWorkflowFailure", ({ enumerable: true, get: function () { return common_1.ChildWorkflowFailure; } }));
Object.defineProperty(exports, "defaultPayloadConverter", ({ enumerable: true, get: function () { return common_1.defaultPayloadConverter; } }));
Object.defineProperty(exports, "rootCause", ({ enumerable: true, get: function () { return common_1.rootCause; } }));
Object.defineProperty(exports, "ServerFailure", ({ enumerable: true, get: function () { return common_1.ServerFailure; } }));
Object.defineProperty(exports, "TemporalFailure", ({ enumerable: true, get: function () { return common_1.TemporalFailure; } }));
Object.defineProperty(exports, "TerminatedFailure", ({ enumerable: true, get: function () { return common_1.TerminatedFailure; } }));
Object.defineProperty(exports, "TimeoutFailure", ({ enumerable: true, get: function () { return common_1.TimeoutFailure; } }));
__exportStar(__webpack_require__(/*! @temporalio/common/lib/errors */ "./node_modules/@temporalio/common/lib/errors.js"), exports);
__exportStar(__webpack_require__(/*! @temporalio/common/lib/workflow-handle */ "./node_modules/@temporalio/common/lib/workflow-handle.js"), exports);
__exportStar(__webpack_require__(/*! @temporalio/common/lib/workflow-options */ "./node_modules/@temporalio/common/lib/workflow-options.js"), exports);
var cancellation_scope_1 = __webpack_require__(/*! ./cancellation-scope */ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js");
Object.defineProperty(exports, "AsyncLocalStorage", ({ enumerable: true, get: function () { return cancellation_scope_1.AsyncLocalStorage; } }));
Object.defineProperty(exports, "CancellationScope", ({ enumerable: true, get: function () { return cancellation_scope_1.CancellationScope; } }));
__exportStar(__webpack_require__(/*! ./errors */ "./node_modules/@temporalio/workflow/lib/errors.js"), exports);
__exportStar(__webpack_require__(/*! ./interceptors */ "./node_modules/@temporalio/workflow/lib/interceptors.js"), exports);
var interfaces_1 = __webpack_require__(/*! ./interfaces */ "./node_modules/@temporalio/workflow/lib/interfaces.js");
Object.defineProperty(exports, "ChildWorkflowCancellationType", ({ enumerable: true, get: function () { return interfaces_1.ChildWorkflowCancellationType; } }));
Object.defineProperty(exports, "ContinueAsNew", ({ enumerable: true, get: function () { return interfaces_1.ContinueAsNew; } }));
Object.defineProperty(exports, "ParentClosePolicy", ({ enumerable: true, get: function () { return interfaces_1.ParentClosePolicy; } }));
var sinks_1 = __webpack_require__(/*! ./sinks */ "./node_modules/@temporalio/workflow/lib/sinks.js");
Object.defineProperty(exports, "proxySinks", ({ enumerable: true, get: function () { return sinks_1.proxySinks; } }));
var random_streams_1 = __webpack_require__(/*! ./random-streams */ "./node_modules/@temporalio/workflow/lib/random-streams.js");
Object.defineProperty(exports, "getRandomStream", ({ enumerable: true, get: function () { return random_streams_1.getRandomStream; } }));
Object.defineProperty(exports, "workflowRandom", ({ enumerable: true, get: function () { return random_streams_1.workflowRandom; } }));
var logs_1 = __webpack_require__(/*! ./logs */ "./node_modules/@temporalio/workflow/lib/logs.js");
Object.defineProperty(exports, "log", ({ enumerable: true, get: function () { return logs_1.log; } }));
var trigger_1 = __webpack_require__(/*! ./trigger */ "./node_modules/@temporalio/workflow/lib/trigger.js");
Object.defineProperty(exports, "Trigger", ({ enumerable: true, get: function () { return trigger_1.Trigger; } }));
var event_groups_1 = __webpack_require__(/*! ./event-groups */ "./node_modules/@temporalio/workflow/lib/event-groups.js");
Object.defineProperty(exports, "createEventGroup", ({ enumerable: true, get: function () { return event_groups_1.createEventGroup; } }));
__exportStar(__webpack_require__(/*! ./workflow */ "./node_modules/@temporalio/workflow/lib/workflow.js"), exports);
var metrics_1 = __webpack_require__(/*! ./metrics */ "./node_modules/@temporalio/workflow/lib/metrics.js");
Object.defineProperty(exports, "metricMeter", ({ enumerable: true, get: function () { return metrics_1.metricMeter; } }));
var nexus_1 = __webpack_require__(/*! ./nexus */ "./node_modules/@temporalio/workflow/lib/nexus.js");
Object.defineProperty(exports, "createNexusServiceClient", ({ enumerable: true, get: function () { return nexus_1.createNexusServiceClient; } }));
Object.defineProperty(exports, "NexusOperationCancellationType", ({ enumerable: true, get: function () { return nexus_1.NexusOperationCancellationType; } }));


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/interceptor-composition.js"
/*!**************************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/interceptor-composition.js ***!
  \**************************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.composeInterceptors = composeInterceptors;
const interceptors_1 = __webpack_require__(/*! @temporalio/common/lib/interceptors */ "./node_modules/@temporalio/common/lib/interceptors.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
/**
 * Compose workflow interceptors while making every `next(...)` continuation re-enter
 * the workflow-random scope that was current when that continuation was created.
 *
 * This is intentionally a thin wrapper over the shared interceptor composition helper
 * in `packages/common`. The shared helper owns the actual chain-construction algorithm,
 * ordering, and `next(...)` wiring so workflow code cannot silently drift away from the
 * semantics used by the rest of the SDK.
 *
 * The workflow-specific behavior lives entirely in the `wrapNext` hook we pass into that
 * shared helper. Each `next(...)` continuation handed to a workflow interceptor is wrapped
 * with `Activator.bindCurrentRandom(...)`, which captures the currently active workflow
 * random scope, including the absence of any scoped override. When the interceptor later
 * calls `next(...)`, the wrapper restores that captured scope before entering the rest of
 * the interceptor chain or the base workflow/runtime handler.
 *
 * That is the behavior we need for `WorkflowRandomStream.with(...)`: a temporary
 * plugin/interceptor scope should apply to the plugin's own code, but it must not
 * leak through `next(...)` into downstream workflow code unless that downstream code
 * explicitly establishes its own scope.
 */
function composeInterceptors(interceptors, method, next) {
    const activator = (0, global_attributes_1.getActivator)();
    return (0, interceptors_1.composeInterceptorsWith)(interceptors, method, next, ((wrappedNext) => activator.bindCurrentRandom(wrappedNext)));
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/interceptors.js"
/*!***************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/interceptors.js ***!
  \***************************************************************/
(__unused_webpack_module, exports) {

"use strict";

/**
 * Type definitions for Workflow interceptors.
 *
 * @module
 */
Object.defineProperty(exports, "__esModule", ({ value: true }));


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/interfaces.js"
/*!*************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/interfaces.js ***!
  \*************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var _a, _b;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.decodeParentClosePolicy = exports.encodeParentClosePolicy = exports.ParentClosePolicy = exports.decodeChildWorkflowCancellationType = exports.encodeChildWorkflowCancellationType = exports.ChildWorkflowCancellationType = exports.ContinueAsNew = void 0;
const type_helpers_1 = __webpack_require__(/*! @temporalio/common/lib/type-helpers */ "./node_modules/@temporalio/common/lib/type-helpers.js");
const enums_helpers_1 = __webpack_require__(/*! @temporalio/common/lib/internal-workflow/enums-helpers */ "./node_modules/@temporalio/common/lib/internal-workflow/enums-helpers.js");
/**
 * Not an actual error, used by the Workflow runtime to abort execution when {@link continueAsNew} is called
 */
let ContinueAsNew = class ContinueAsNew extends Error {
    command;
    eventGroupMarkers;
    /**
     * The `ContinueAsNew` class is exported so that user code can perform
     * `instanceof ContinueAsNew` checks, but users should never explicitly
     * construct instances of that class.
     *
     * Use the {@link continueAsNew} / {@link makeContinueAsNewFunc} functions instead.
     *
     * @internal
     */
    constructor(command, eventGroupMarkers) {
        super('Workflow continued as new');
        this.command = command;
        this.eventGroupMarkers = eventGroupMarkers;
    }
};
exports.ContinueAsNew = ContinueAsNew;
exports.ContinueAsNew = ContinueAsNew = __decorate([
    (0, type_helpers_1.SymbolBasedInstanceOfError)('ContinueAsNew')
], ContinueAsNew);
/**
 * Determines:
 * - whether cancellation requests should be propagated from the Parent Workflow to the Child, and
 * - whether and when should the Child's cancellation be reported back to the Parent Workflow
 *   (i.e. at which moment should the {@link executeChild}'s or {@link ChildWorkflowHandle.result}'s
 *   promise fail with a `ChildWorkflowFailure`, with `cause` set to a `CancelledFailure`).
 *
 * Note that this setting only applies to cancellation originating from an external request for the
 * Parent Workflow itself, or from internal cancellation of the `CancellationScope` in which the
 * Child Workflow call was made. Eventual Cancellation of a Child Workflow on completion of the
 * Parent Workflow is controlled by the {@link ParentClosePolicy} setting.
 *
 * @default ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED
 */
// MAINTENANCE: Keep this typedoc in sync with the `ChildWorkflowOptions.cancellationType` field
exports.ChildWorkflowCancellationType = {
    /**
     * Do not propagate cancellation requests to the Child, and immediately report cancellation
     * to the caller.
     */
    ABANDON: 'ABANDON',
    /**
     * Propagate cancellation request from the Parent Workflow to the Child, yet _immediately_ report
     * cancellation to the caller, i.e. without waiting for the server to confirm the cancellation
     * request.
     *
     * Note that this cancellation type provides no guarantee, from the Parent-side, that the
     * cancellation request will actually be atomically added to the Child workflow's history.
     * In particular, the Child may complete (either successfully or uncessfully) before the
     * cancellation is delivered, resulting in a situation where the Parent workflow thinks its child
     * was cancelled, but the child actually completed successfully.
     *
     * To guarantee that the Child will eventually be notified of the cancellation request,
     * use {@link WAIT_CANCELLATION_REQUESTED}.
     */
    TRY_CANCEL: 'TRY_CANCEL',
    /**
     * Propagate cancellation request from the Parent Workflow to the Child, then wait for the server
     * to confirm that the Child Workflow cancellation request was recorded in its history.
     *
     * This cancellation type guarantees that the Child will eventually be notified of the
     * cancellation request (that is, unless the Child terminates inbetween due to unexpected causes).
     */
    WAIT_CANCELLATION_REQUESTED: 'WAIT_CANCELLATION_REQUESTED',
    /**
     * Propagate cancellation request from the Parent Workflow to the Child, then wait for completion
     * of the Child Workflow.
     *
     * The Child may respect cancellation, in which case the Parent's `executeChild` or
     * `ChildWorkflowHandle.result` promise will fail with a `ChildWorkflowFailure`, with `cause`
     * set to a `CancelledFailure`. On the other hand, the Child may ignore the cancellation request,
     * in which case the corresponding promise will either resolve with a result (if Child completed
     * successfully) or reject with a different cause (if Child completed uncessfully).
     *
     * @default
     */
    WAIT_CANCELLATION_COMPLETED: 'WAIT_CANCELLATION_COMPLETED',
};
// ts-prune-ignore-next
_a = (0, enums_helpers_1.makeProtoEnumConverters)({
    [exports.ChildWorkflowCancellationType.ABANDON]: 0,
    [exports.ChildWorkflowCancellationType.TRY_CANCEL]: 1,
    [exports.ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED]: 2,
    [exports.ChildWorkflowCancellationType.WAIT_CANCELLATION_REQUESTED]: 3,
}, ''), exports.encodeChildWorkflowCancellationType = _a[0], exports.decodeChildWorkflowCancellationType = _a[1];
/**
 * How a Child Workflow reacts to the Parent Workflow reaching a Closed state.
 *
 * @see {@link https://docs.temporal.io/concepts/what-is-a-parent-close-policy/ | Parent Close Policy}
 */
exports.ParentClosePolicy = {
    /**
     * When the Parent is Closed, the Child is Terminated.
     *
     * @default
     */
    TERMINATE: 'TERMINATE',
    /**
     * When the Parent is Closed, nothing is done to the Child.
     */
    ABANDON: 'ABANDON',
    /**
     * When the Parent is Closed, the Child is Cancelled.
     */
    REQUEST_CANCEL: 'REQUEST_CANCEL',
    /// Anything below this line has been deprecated
    /**
     * If a `ParentClosePolicy` is set to this, or is not set at all, the server default value will be used.
     *
     * @deprecated Either leave property `undefined`, or set an explicit policy instead.
     */
    PARENT_CLOSE_POLICY_UNSPECIFIED: undefined,
    /**
     * When the Parent is Closed, the Child is Terminated.
     *
     * @deprecated Use {@link ParentClosePolicy.TERMINATE} instead.
     */
    PARENT_CLOSE_POLICY_TERMINATE: 'TERMINATE',
    /**
     * When the Parent is Closed, nothing is done to the Child.
     *
     * @deprecated Use {@link ParentClosePolicy.ABANDON} instead.
     */
    PARENT_CLOSE_POLICY_ABANDON: 'ABANDON',
    /**
     * When the Parent is Closed, the Child is Cancelled.
     *
     * @deprecated Use {@link ParentClosePolicy.REQUEST_CANCEL} instead.
     */
    PARENT_CLOSE_POLICY_REQUEST_CANCEL: 'REQUEST_CANCEL',
};
// ts-prune-ignore-next
_b = (0, enums_helpers_1.makeProtoEnumConverters)({
    [exports.ParentClosePolicy.TERMINATE]: 1,
    [exports.ParentClosePolicy.ABANDON]: 2,
    [exports.ParentClosePolicy.REQUEST_CANCEL]: 3,
    UNSPECIFIED: 0,
}, 'PARENT_CLOSE_POLICY_'), exports.encodeParentClosePolicy = _b[0], exports.decodeParentClosePolicy = _b[1];


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/internals.js"
/*!************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/internals.js ***!
  \************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.Activator = void 0;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const payload_search_attributes_1 = __webpack_require__(/*! @temporalio/common/lib/converter/payload-search-attributes */ "./node_modules/@temporalio/common/lib/converter/payload-search-attributes.js");
const internal_workflow_1 = __webpack_require__(/*! @temporalio/common/lib/internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
const reserved_1 = __webpack_require__(/*! @temporalio/common/lib/reserved */ "./node_modules/@temporalio/common/lib/reserved.js");
const alea_1 = __webpack_require__(/*! ./alea */ "./node_modules/@temporalio/workflow/lib/alea.js");
const cancellation_scope_1 = __webpack_require__(/*! ./cancellation-scope */ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js");
const interceptor_composition_1 = __webpack_require__(/*! ./interceptor-composition */ "./node_modules/@temporalio/workflow/lib/interceptor-composition.js");
const update_scope_1 = __webpack_require__(/*! ./update-scope */ "./node_modules/@temporalio/workflow/lib/update-scope.js");
const random_stream_seed_1 = __webpack_require__(/*! ./random-stream-seed */ "./node_modules/@temporalio/workflow/lib/random-stream-seed.js");
const errors_1 = __webpack_require__(/*! ./errors */ "./node_modules/@temporalio/workflow/lib/errors.js");
const interfaces_1 = __webpack_require__(/*! ./interfaces */ "./node_modules/@temporalio/workflow/lib/interfaces.js");
const event_groups_1 = __webpack_require__(/*! ./event-groups */ "./node_modules/@temporalio/workflow/lib/event-groups.js");
const stack_helpers_1 = __webpack_require__(/*! ./stack-helpers */ "./node_modules/@temporalio/workflow/lib/stack-helpers.js");
const pkg_1 = __importDefault(__webpack_require__(/*! ./pkg */ "./node_modules/@temporalio/workflow/lib/pkg.js"));
const flags_1 = __webpack_require__(/*! ./flags */ "./node_modules/@temporalio/workflow/lib/flags.js");
const logs_1 = __webpack_require__(/*! ./logs */ "./node_modules/@temporalio/workflow/lib/logs.js");
const StartChildWorkflowExecutionFailedCause = {
    WORKFLOW_ALREADY_EXISTS: 'WORKFLOW_ALREADY_EXISTS',
};
const [_encodeStartChildWorkflowExecutionFailedCause, decodeStartChildWorkflowExecutionFailedCause] = (0, internal_workflow_1.makeProtoEnumConverters)({
    [StartChildWorkflowExecutionFailedCause.WORKFLOW_ALREADY_EXISTS]: 1,
    UNSPECIFIED: 0,
}, 'START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_');
/**
 * Keeps all of the Workflow runtime state like pending completions for activities and timers.
 *
 * Implements handlers for all workflow activation jobs.
 *
 * Note that most methods in this class are meant to be called only from within the VM.
 *
 * However, a few methods may be called directly from outside the VM (essentially from `vm-shared.ts`).
 * These methods are specifically marked with a comment and require careful consideration, as the
 * execution context may not properly reflect that of the target workflow execution (e.g.: with Reusable
 * VMs, the `global` may not have been swapped to those of that workflow execution; the active microtask
 * queue may be that of the thread/process, rather than the queue of that VM context; etc). Consequently,
 * methods that are meant to be called from outside of the VM must not do any of the following:
 *
 * - Access any global variable;
 * - Create Promise objects, use async/await, or otherwise schedule microtasks;
 * - Call user-defined functions, including any form of interceptor.
 */
class Activator {
    /**
     * Cache for modules - referenced in reusable-vm.ts
     */
    moduleCache = new Map();
    /**
     * Map of task sequence to a Completion
     */
    completions = {
        timer: new Map(),
        activity: new Map(),
        nexusOperationStart: new Map(),
        nexusOperationComplete: new Map(),
        childWorkflowStart: new Map(),
        childWorkflowComplete: new Map(),
        signalWorkflow: new Map(),
        cancelWorkflow: new Map(),
    };
    /**
     * Holds buffered Update calls until a handler is registered
     */
    bufferedUpdates = Array();
    /**
     * Holds buffered signal calls until a handler is registered
     */
    bufferedSignals = Array();
    /**
     * Mapping of update name to handler and validator
     */
    updateHandlers = new Map();
    /**
     * Mapping of signal name to handler
     */
    signalHandlers = new Map();
    /**
     * Mapping of in-progress updates to handler execution information.
     */
    inProgressUpdates = new Map();
    /**
     * Mapping of in-progress signals to handler execution information.
     */
    inProgressSignals = new Map();
    /**
     * A sequence number providing unique identifiers for signal handler executions.
     */
    signalHandlerExecutionSeq = 0;
    /**
     * A signal handler that catches calls for non-registered signal names.
     */
    defaultSignalHandler;
    /**
     * A update handler that catches calls for non-registered update names.
     */
    defaultUpdateHandler;
    /**
     * A query handler that catches calls for non-registered query names.
     */
    defaultQueryHandler;
    /**
     * Source map file for looking up the source files in response to __enhanced_stack_trace
     */
    sourceMap;
    /**
     * Whether or not to send the sources in enhanced stack trace query responses
     */
    showStackTraceSources;
    promiseStackStore = {
        promiseToStack: new Map(),
        childToParent: new Map(),
    };
    /**
     * The error that caused the current Workflow Task to fail. Sets if a non-`TemporalFailure`
     * error bubbles up out of the Workflow function, or out of a Signal or Update handler. We
     * capture errors this way because those functions are not technically awaited when started,
     * but left to run asynchronously. There is therefore no real "parent" function that can
     * directly handle those errors, and not capturing it would result in an Unhandled Promise
     * Rejection. So instead, we buffer the error here, to then be processed in the context
     * of our own synchronous Activation handling event loop.
     *
     * Our code does a best effort to stop processing the current activation as soon as possible
     * after this field is set:
     *  - If an error is thrown while executing code synchronously (e.g. anything before the
     *    first `await` statement in a Workflow function or a signal/update handler), the error
     *    will be _immediately_ rethrown, which will prevent execution of further jobs in the
     *    current activation. We know we're currently running code synchronously thanks to the
     *    `rethrowSynchronously` flag below.
     *  - It an error is thrown while executing microtasks, then the error will be rethrown on
     *    the next call to `tryUnblockConditions()`.
     *
     * Unfortunately, there's no way for us to prevent further execution of microtasks that have
     * already been scheduled, nor those that will be recursively scheduled from those microtasks.
     * Should more errors get thrown while settling microtasks, those will be ignored (i.e. only
     * the first captured error is preserved).
     */
    workflowTaskError;
    /**
     * Error type _names_ (from {@link WorkerOptions.workflowFailureErrorTypes}) that
     * should cause Workflow Execution failure rather than WFT failure.
     *
     * Set at workflow creation time from the worker options.
     */
    failureExceptionTypeNames = [];
    /**
     * Error _types_ (from {@link WorkflowDefinitionOptions.failureExceptionTypes})
     * that should cause Workflow Execution failure rather than WFT failure.
     *
     * Set in `worker-interface.ts` after the workflow definition options are read.
     */
    workflowDefinitionFailureExceptionTypes = undefined;
    /**
     * Set to true when running synchronous code (e.g. while processing activation jobs and when calling
     * `tryUnblockConditions()`). While this flag is set, it is safe to let errors bubble up.
     */
    rethrowSynchronously = false;
    rootScope = new cancellation_scope_1.RootCancellationScope();
    /**
     * Mapping of query name to handler
     */
    queryHandlers = new Map([
        [
            reserved_1.STACK_TRACE_QUERY_NAME,
            {
                handler: () => {
                    return new common_1.RawValue(this.getStackTraces()
                        .map((s) => s.formatted)
                        .join('\n\n'));
                },
                description: 'Returns a sensible stack trace.',
            },
        ],
        [
            reserved_1.ENHANCED_STACK_TRACE_QUERY_NAME,
            {
                handler: () => {
                    const { sourceMap } = this;
                    const sdk = { name: 'typescript', version: pkg_1.default.version };
                    const stacks = this.getStackTraces().map(({ structured: locations }) => ({ locations }));
                    const sources = {};
                    if (this.showStackTraceSources) {
                        for (const { locations } of stacks) {
                            for (const { file_path } of locations) {
                                if (!file_path)
                                    continue;
                                const content = sourceMap?.sourcesContent?.[sourceMap?.sources.indexOf(file_path)];
                                if (!content)
                                    continue;
                                sources[file_path] = [
                                    {
                                        line_offset: 0,
                                        content,
                                    },
                                ];
                            }
                        }
                    }
                    return new common_1.RawValue({ sdk, stacks, sources });
                },
                description: 'Returns a stack trace annotated with source information.',
            },
        ],
        [
            '__temporal_workflow_metadata',
            {
                handler: () => {
                    const workflowType = this.info.workflowType;
                    const queryDefinitions = Array.from(this.queryHandlers.entries()).map(([name, value]) => ({
                        name,
                        description: value.description,
                    }));
                    const signalDefinitions = Array.from(this.signalHandlers.entries()).map(([name, value]) => ({
                        name,
                        description: value.description,
                    }));
                    const updateDefinitions = Array.from(this.updateHandlers.entries()).map(([name, value]) => ({
                        name,
                        description: value.description,
                    }));
                    return new common_1.RawValue({
                        definition: {
                            type: workflowType,
                            queryDefinitions,
                            signalDefinitions,
                            updateDefinitions,
                        },
                        currentDetails: this.currentDetails,
                    });
                },
                description: 'Returns metadata associated with this workflow.',
            },
        ],
    ]);
    /**
     * Loaded in {@link initRuntime}
     */
    interceptors = {
        inbound: [],
        outbound: [],
        internals: [],
    };
    /**
     * Buffer that stores all generated commands, reset after each activation
     */
    commands = [];
    /**
     * Stores all {@link condition}s that haven't been unblocked yet
     */
    blockedConditions = new Map();
    /**
     * Is this Workflow completed?
     *
     * A Workflow will be considered completed if it generates a command that the
     * system considers as a final Workflow command (e.g.
     * completeWorkflowExecution or failWorkflowExecution).
     */
    completed = false;
    /**
     * Was this Workflow cancelled?
     */
    cancelled = false;
    /**
     * The next (incremental) sequence to assign when generating completable commands
     */
    nextSeqs = {
        timer: 1,
        activity: 1,
        childWorkflow: 1,
        signalWorkflow: 1,
        cancelWorkflow: 1,
        condition: 1,
        nexusOperation: 1,
        // Used internally to keep track of active stack traces
        stack: 1,
    };
    /**
     * This is set every time the workflow executes an activation
     * May be accessed and modified from outside the VM.
     */
    now;
    /**
     * Reference to the current Workflow, initialized when a Workflow is started
     */
    workflow;
    /**
     * Information about the current Workflow
     * May be accessed from outside the VM.
     */
    info;
    /**
     * The main deterministic RNG for this workflow execution.
     *
     * Scoped overrides used by `WorkflowRandomStream.with(...)` are layered on top of this RNG.
     */
    random;
    /**
     * The current seed material for this workflow execution's deterministic RNGs.
     */
    randomnessSeed;
    /**
     * Additional deterministic RNG streams keyed by stable stream name.
     */
    namedRandomStreams = new Map();
    currentRandomStorage;
    payloadConverter = common_1.defaultPayloadConverter;
    failureConverter = common_1.defaultFailureConverter;
    /**
     * Patches we know the status of for this workflow, as in {@link patched}
     */
    knownPresentPatches = new Set();
    /**
     * Patches we sent to core {@link patched}
     */
    sentPatches = new Set();
    /** Resolved patch activation decisions, including callback decisions that leave a patch inactive. */
    patchDecisions = new Map();
    knownFlags = new Set();
    sdkVersion;
    /**
     * Buffered sink calls per activation
     */
    sinkCalls = Array();
    /**
     * A nanosecond resolution time function, externally injected. This is used to
     * precisely sort logs entries emitted from the Workflow Context vs those emitted
     * from other sources (e.g. main thread, Core, etc).
     */
    getTimeOfDay;
    registeredActivityNames;
    currentDetails = '';
    versioningBehavior;
    workflowDefinitionOptionsGetter;
    workflowSandboxDestructors = [];
    stackTracesEnabled;
    patchActivationCallback;
    typeInfo;
    constructor({ info, now, showStackTraceSources, sourceMap, getTimeOfDay, randomnessSeed, registeredActivityNames, stackTracesEnabled, failureExceptionTypeNames, patchActivationCallback, }) {
        this.getTimeOfDay = getTimeOfDay;
        this.info = info;
        this.now = now;
        this.showStackTraceSources = showStackTraceSources;
        this.sourceMap = sourceMap;
        this.randomnessSeed = [...randomnessSeed];
        this.random = (0, alea_1.alea)(this.randomnessSeed);
        this.registeredActivityNames = registeredActivityNames;
        this.stackTracesEnabled = stackTracesEnabled;
        this.failureExceptionTypeNames = failureExceptionTypeNames ?? [];
        this.patchActivationCallback = patchActivationCallback;
    }
    setRandomnessSeed(randomnessSeed) {
        this.randomnessSeed = [...randomnessSeed];
        this.random = (0, alea_1.alea)(this.randomnessSeed);
        this.namedRandomStreams.clear();
    }
    getNamedRandom(name) {
        const cached = this.namedRandomStreams.get(name);
        if (cached !== undefined) {
            return cached;
        }
        const random = (0, alea_1.alea)((0, random_stream_seed_1.deriveAleaSeed)(this.randomnessSeed, name));
        this.namedRandomStreams.set(name, random);
        return random;
    }
    withRandomSource(randomSource, fn) {
        return (this.currentRandomStorage ??= new update_scope_1.AsyncLocalStorage()).run(randomSource, fn);
    }
    withCurrentRandom(randomSource, fn) {
        return this.withRandomSource(randomSource, fn);
    }
    bindCurrentRandom(fn) {
        const randomSource = this.currentRandomStorage?.getStore();
        return ((...args) => this.withRandomSource(randomSource, () => fn(...args)));
    }
    currentRandom() {
        return this.currentRandomStorage?.getStore()?.random() ?? this.random();
    }
    /**
     * May be invoked from outside the VM.
     */
    mutateWorkflowInfo(fn) {
        this.info = fn(this.info);
    }
    getStackTraces() {
        if (!this.stackTracesEnabled) {
            throw new common_1.IllegalStateError('Workflow stack traces are not enabled on this worker');
        }
        const { childToParent, promiseToStack } = this.promiseStackStore;
        const internalNodes = [...childToParent.values()].reduce((acc, curr) => {
            for (const p of curr) {
                acc.add(p);
            }
            return acc;
        }, new Set());
        const stacks = new Map();
        for (const child of childToParent.keys()) {
            if (!internalNodes.has(child)) {
                const stack = promiseToStack.get(child);
                if (!stack || !stack.formatted)
                    continue;
                stacks.set(stack.formatted, stack);
            }
        }
        // Not 100% sure where this comes from, just filter it out
        stacks.delete('    at Promise.then (<anonymous>)');
        stacks.delete('    at Promise.then (<anonymous>)\n');
        return [...stacks].map(([_, stack]) => stack);
    }
    /**
     * May be invoked from outside the VM.
     */
    getAndResetSinkCalls() {
        const { sinkCalls } = this;
        this.sinkCalls = [];
        return sinkCalls;
    }
    /**
     * Buffer a Workflow command to be collected at the end of the current activation.
     *
     * Prevents commands from being added after Workflow completion.
     */
    pushCommand(cmd, complete = false) {
        this.commands.push(cmd);
        if (complete) {
            this.completed = true;
        }
    }
    concludeActivation() {
        return {
            commands: this.commands.splice(0),
            usedInternalFlags: [...this.knownFlags],
            versioningBehavior: this.versioningBehavior,
        };
    }
    async startWorkflowNextHandler({ args }) {
        const { workflow } = this;
        if (workflow == null) {
            throw new common_1.IllegalStateError('Workflow uninitialized');
        }
        return await workflow(...args);
    }
    startWorkflow(activation) {
        const execute = (0, interceptor_composition_1.composeInterceptors)(this.interceptors.inbound, 'execute', this.startWorkflowNextHandler.bind(this));
        const context = this.workflowSerializationContext();
        (0, stack_helpers_1.untrackPromise)((0, logs_1.executeWithLifecycleLogging)(() => execute({
            headers: activation.headers ?? {},
            args: (0, common_1.arrayFromPayloads)(this.payloadConverter, activation.arguments, context, this.typeInfo?.inputTypes),
        })).then(this.completeWorkflow.bind(this), this.handleWorkflowFailure.bind(this)));
    }
    initializeWorkflow(activation) {
        const { continuedFailure, lastCompletionResult, memo, searchAttributes } = activation;
        const context = this.workflowSerializationContext();
        // Most things related to initialization have already been handled in the constructor
        this.mutateWorkflowInfo((info) => ({
            ...info,
            searchAttributes: (0, payload_search_attributes_1.decodeSearchAttributes)(searchAttributes?.indexedFields),
            typedSearchAttributes: (0, payload_search_attributes_1.decodeTypedSearchAttributes)(searchAttributes?.indexedFields),
            memo: (0, common_1.mapFromPayloads)(this.payloadConverter, memo?.fields, context) ?? {},
            lastResult: (0, common_1.fromPayloadsAtIndex)(this.payloadConverter, 0, lastCompletionResult?.payloads, context),
            lastFailure: continuedFailure != null
                ? this.failureConverter.failureToError(continuedFailure, this.payloadConverter, context)
                : undefined,
        }));
        const workflowDefinitionOpts = this.workflowDefinitionOptionsGetter?.();
        if (workflowDefinitionOpts) {
            this.versioningBehavior = workflowDefinitionOpts.versioningBehavior;
            this.workflowDefinitionFailureExceptionTypes = workflowDefinitionOpts.failureExceptionTypes;
        }
    }
    cancelWorkflow(_activation) {
        this.cancelled = true;
        this.rootScope.cancel();
    }
    fireTimer(activation) {
        // Timers are a special case where their completion might not be in Workflow state,
        // this is due to immediate timer cancellation that doesn't go wait for Core.
        const completion = this.maybeConsumeCompletion('timer', getSeq(activation));
        completion?.resolve(undefined);
    }
    resolveActivity(activation) {
        if (!activation.result) {
            throw new TypeError('Got ResolveActivity activation with no result');
        }
        const { resolve, reject, context, outputTypeInfo } = this.consumeCompletion('activity', getSeq(activation));
        if (activation.result.completed) {
            const completed = activation.result.completed;
            const result = completed.result
                ? (0, common_1.fromPayloadWithTypeInfo)(this.payloadConverter, completed.result, context, outputTypeInfo)
                : undefined;
            resolve(result);
        }
        else if (activation.result.failed) {
            const { failure } = activation.result.failed;
            if (failure == null) {
                throw new TypeError('Got failed result with no failure attribute');
            }
            reject(this.failureConverter.failureToError(failure, this.payloadConverter, context));
        }
        else if (activation.result.cancelled) {
            const { failure } = activation.result.cancelled;
            if (failure == null) {
                throw new TypeError('Got cancelled result with no failure attribute');
            }
            reject(this.failureConverter.failureToError(failure, this.payloadConverter, context));
        }
        else if (activation.result.backoff) {
            reject(new errors_1.LocalActivityDoBackoff(activation.result.backoff));
        }
    }
    resolveChildWorkflowExecutionStart(activation) {
        const seq = getSeq(activation);
        const { resolve, reject, context } = this.consumeCompletion('childWorkflowStart', seq);
        if (activation.succeeded) {
            if (!activation.succeeded.runId) {
                throw new TypeError('Got ResolveChildWorkflowExecutionStart with no runId');
            }
            resolve(activation.succeeded.runId);
        }
        else if (activation.failed) {
            if (decodeStartChildWorkflowExecutionFailedCause(activation.failed.cause) !== 'WORKFLOW_ALREADY_EXISTS') {
                throw new common_1.IllegalStateError('Got unknown StartChildWorkflowExecutionFailedCause');
            }
            if (!(activation.seq && activation.failed.workflowId && activation.failed.workflowType)) {
                throw new TypeError('Missing attributes in activation job');
            }
            reject(new common_1.WorkflowExecutionAlreadyStartedError('Workflow execution already started', activation.failed.workflowId, activation.failed.workflowType));
            this.completions.childWorkflowComplete.delete(seq);
        }
        else if (activation.cancelled) {
            if (!activation.cancelled.failure) {
                throw new TypeError('Got no failure in cancelled variant');
            }
            reject(this.failureConverter.failureToError(activation.cancelled.failure, this.payloadConverter, context));
            this.completions.childWorkflowComplete.delete(seq);
        }
        else {
            throw new TypeError('Got ResolveChildWorkflowExecutionStart with no status');
        }
    }
    resolveChildWorkflowExecution(activation) {
        if (!activation.result) {
            throw new TypeError('Got ResolveChildWorkflowExecution activation with no result');
        }
        const { resolve, reject, context, outputTypeInfo } = this.consumeCompletion('childWorkflowComplete', getSeq(activation));
        if (activation.result.completed) {
            const completed = activation.result.completed;
            const result = completed.result
                ? (0, common_1.fromPayloadWithTypeInfo)(this.payloadConverter, completed.result, context, outputTypeInfo)
                : undefined;
            resolve(result);
        }
        else if (activation.result.failed) {
            const { failure } = activation.result.failed;
            if (failure == null) {
                throw new TypeError('Got failed result with no failure attribute');
            }
            reject(this.failureConverter.failureToError(failure, this.payloadConverter, context));
        }
        else if (activation.result.cancelled) {
            const { failure } = activation.result.cancelled;
            if (failure == null) {
                throw new TypeError('Got cancelled result with no failure attribute');
            }
            reject(this.failureConverter.failureToError(failure, this.payloadConverter, context));
        }
    }
    resolveNexusOperationStart(activation) {
        const seq = getSeq(activation);
        const { resolve, reject, outputTypeInfo } = this.consumeCompletion('nexusOperationStart', seq);
        if (!activation.failed) {
            const completePromise = new Promise((resolve, reject) => {
                this.completions.nexusOperationComplete.set(seq, {
                    resolve,
                    reject,
                    outputTypeInfo,
                });
            });
            (0, stack_helpers_1.untrackPromise)(completePromise);
            (0, stack_helpers_1.untrackPromise)(completePromise.catch(() => undefined));
            resolve({ token: activation.operationToken, result: completePromise });
        }
        else {
            reject(this.failureToError(activation.failed));
        }
    }
    resolveNexusOperation(activation) {
        const seq = getSeq(activation);
        const context = this.workflowSerializationContext();
        if (activation.result?.completed) {
            // It is possible for ResolveNexusOperation to be received without a prior ResolveNexusOperationStart,
            // e.g. because the handler completed the Operation synchronously.
            const startCompletion = this.maybeConsumeCompletion('nexusOperationStart', seq);
            let outputTypeInfo;
            let resolveResult;
            if (startCompletion) {
                outputTypeInfo = startCompletion.outputTypeInfo;
                resolveResult = (result) => startCompletion.resolve({ result: Promise.resolve(result) });
            }
            else {
                const completion = this.consumeCompletion('nexusOperationComplete', seq);
                outputTypeInfo = completion.outputTypeInfo;
                resolveResult = completion.resolve;
            }
            const result = (0, common_1.fromPayloadWithTypeInfo)(this.payloadConverter, activation.result.completed, context, outputTypeInfo);
            resolveResult(result);
        }
        else {
            let err;
            if (activation.result?.failed) {
                err = this.failureToError(activation.result.failed);
            }
            else if (activation.result?.cancelled) {
                err = this.failureToError(activation.result.cancelled);
            }
            else if (activation.result?.timedOut) {
                err = this.failureToError(activation.result.timedOut);
            }
            const completion = this.maybeConsumeCompletion('nexusOperationStart', seq) ??
                this.consumeCompletion('nexusOperationComplete', seq);
            completion.reject(err);
        }
    }
    // Intentionally non-async function so this handler doesn't show up in the stack trace
    queryWorkflowNextHandler({ queryName, args }) {
        let fn = this.queryHandlers.get(queryName)?.handler;
        if (fn === undefined && this.defaultQueryHandler !== undefined) {
            fn = this.defaultQueryHandler.bind(undefined, queryName);
        }
        // No handler or default registered, fail.
        if (fn === undefined) {
            const knownQueryTypes = [...this.queryHandlers.keys()].join(' ');
            // Fail the query
            return Promise.reject(new ReferenceError(`Workflow did not register a handler for ${queryName}. Registered queries: [${knownQueryTypes}]`));
        }
        // Execute handler.
        try {
            const ret = fn(...args);
            if (ret instanceof Promise) {
                return Promise.reject(new errors_1.DeterminismViolationError('Query handlers should not return a Promise'));
            }
            return Promise.resolve(ret);
        }
        catch (err) {
            return Promise.reject(err);
        }
    }
    queryWorkflow(activation) {
        const { queryType, queryId, headers } = activation;
        if (!(queryType && queryId)) {
            throw new TypeError('Missing query activation attributes');
        }
        // Reject __temporal_-prefixed queries that would otherwise be routed to the
        // user's default handler. A specific registered handler (e.g. from a
        // contrib package) is allowed through.
        if (queryType.startsWith(reserved_1.TEMPORAL_RESERVED_PREFIX) &&
            !this.queryHandlers.has(queryType) &&
            this.defaultQueryHandler !== undefined) {
            throw new TypeError(`Cannot use query name: '${queryType}', with reserved prefix: '${reserved_1.TEMPORAL_RESERVED_PREFIX}'`);
        }
        // Skip interceptors if it's an internal query.
        const isInternalQuery = queryType.startsWith(reserved_1.TEMPORAL_RESERVED_PREFIX) ||
            queryType === reserved_1.STACK_TRACE_QUERY_NAME ||
            queryType === reserved_1.ENHANCED_STACK_TRACE_QUERY_NAME;
        const interceptors = isInternalQuery ? [] : this.interceptors.inbound;
        const context = this.workflowSerializationContext();
        const typeInfo = this.queryHandlers.get(queryType)?.typeInfo;
        let outputTypeInfo = typeInfo?.outputType;
        const execute = (0, interceptor_composition_1.composeInterceptors)(interceptors, 'handleQuery', (input) => {
            outputTypeInfo = this.queryHandlers.get(input.queryName)?.typeInfo?.outputType;
            return this.queryWorkflowNextHandler(input);
        });
        execute({
            queryName: queryType,
            args: (0, common_1.arrayFromPayloads)(this.payloadConverter, activation.arguments, context, typeInfo?.inputTypes),
            queryId,
            headers: headers ?? {},
        }).then((result) => this.completeQuery(queryId, result, outputTypeInfo), (reason) => this.failQuery(queryId, reason));
    }
    doUpdate(activation) {
        const { id: updateId, protocolInstanceId, name, headers, runValidator } = activation;
        if (!updateId) {
            throw new TypeError('Missing activation update id');
        }
        if (!name) {
            throw new TypeError('Missing activation update name');
        }
        if (!protocolInstanceId) {
            throw new TypeError('Missing activation update protocolInstanceId');
        }
        // Reject __temporal_-prefixed updates that would otherwise be routed to the
        // user's default handler. A specific registered handler (e.g. from a
        // contrib package) is allowed through, and unregistered names without a
        // default handler fall through to the buffer-then-reject path below.
        if (name.startsWith(reserved_1.TEMPORAL_RESERVED_PREFIX) &&
            !this.updateHandlers.has(name) &&
            this.defaultUpdateHandler !== undefined) {
            throw new TypeError(`Cannot use update name: '${name}', with reserved prefix: '${reserved_1.TEMPORAL_RESERVED_PREFIX}'`);
        }
        // Skip interceptors if it's an internal update.
        const isInternalUpdate = name.startsWith(reserved_1.TEMPORAL_RESERVED_PREFIX) ||
            name === reserved_1.STACK_TRACE_QUERY_NAME ||
            name === reserved_1.ENHANCED_STACK_TRACE_QUERY_NAME;
        const interceptors = isInternalUpdate ? [] : this.interceptors.inbound;
        const entry = this.updateHandlers.get(name) ??
            (this.defaultUpdateHandler
                ? {
                    handler: this.defaultUpdateHandler.bind(undefined, name),
                    validator: undefined,
                    typeInfo: undefined,
                    // Default to a warning policy.
                    unfinishedPolicy: common_1.HandlerUnfinishedPolicy.WARN_AND_ABANDON,
                }
                : null);
        // If we don't have an entry from either source, buffer and return
        if (entry == null) {
            this.bufferedUpdates.push(activation);
            return;
        }
        const makeInput = () => {
            const context = this.workflowSerializationContext();
            return {
                updateId,
                args: (0, common_1.arrayFromPayloads)(this.payloadConverter, activation.input, context, entry.typeInfo?.inputTypes),
                name,
                headers: headers ?? {},
            };
        };
        // The implementation below is responsible for upholding, and constrained
        // by, the following contract:
        //
        // 1. If no validator is present then validation interceptors will not be run.
        //
        // 2. During validation, any error must fail the Update; during the Update
        //    itself, Temporal errors fail the Update whereas other errors fail the
        //    activation.
        //
        // 3. The handler must not see any mutations of the arguments made by the
        //    validator.
        //
        // 4. Any error when decoding/deserializing input must be caught and result
        //    in rejection of the Update before it is accepted, even if there is no
        //    validator.
        //
        // 5. The initial synchronous portion of the (async) Update handler should
        //    be executed after the (sync) validator completes such that there is
        //    minimal opportunity for a different concurrent task to be scheduled
        //    between them.
        //
        // 6. The stack trace view provided in the Temporal UI must not be polluted
        //    by promises that do not derive from user code. This implies that
        //    async/await syntax may not be used.
        //
        // Note that there is a deliberately unhandled promise rejection below.
        // These are caught elsewhere and fail the corresponding activation.
        const implicitMarker = (0, event_groups_1.createInboundUpdateMarker)(updateId);
        const doUpdateImpl = async () => {
            let input;
            try {
                if (runValidator && entry.validator) {
                    // Temporarily mark as not replaying history events during validator execution
                    // so that logging is permitted. Validators are live read-only operations.
                    const wasReplayingHistoryEvents = this.info.unsafe.isReplayingHistoryEvents;
                    this.mutateWorkflowInfo((info) => ({
                        ...info,
                        unsafe: { ...info.unsafe, isReplayingHistoryEvents: false },
                    }));
                    try {
                        const validate = (0, interceptor_composition_1.composeInterceptors)(interceptors, 'validateUpdate', this.validateUpdateNextHandler.bind(this, entry.validator));
                        validate(makeInput());
                    }
                    finally {
                        this.mutateWorkflowInfo((info) => ({
                            ...info,
                            unsafe: { ...info.unsafe, isReplayingHistoryEvents: wasReplayingHistoryEvents },
                        }));
                    }
                }
                input = makeInput();
            }
            catch (error) {
                this.rejectUpdate(protocolInstanceId, error);
                return;
            }
            this.acceptUpdate(protocolInstanceId);
            const execute = (0, interceptor_composition_1.composeInterceptors)(interceptors, 'handleUpdate', this.updateNextHandler.bind(this, entry.handler));
            const { unfinishedPolicy } = entry;
            this.inProgressUpdates.set(updateId, { name, unfinishedPolicy, id: updateId });
            const res = implicitMarker
                .withScope(() => execute(input))
                .then((result) => this.completeUpdate(protocolInstanceId, result, entry.typeInfo?.outputType))
                .catch((error) => {
                if (error instanceof common_1.TemporalFailure) {
                    this.rejectUpdate(protocolInstanceId, error);
                }
                else {
                    this.handleWorkflowFailure(error);
                }
            })
                .finally(() => this.inProgressUpdates.delete(updateId));
            (0, stack_helpers_1.untrackPromise)(res);
            return res;
        };
        (0, stack_helpers_1.untrackPromise)(update_scope_1.UpdateScope.updateWithInfo(updateId, name, doUpdateImpl));
    }
    async updateNextHandler(handler, { args }) {
        return await handler(...args);
    }
    validateUpdateNextHandler(validator, { args }) {
        if (validator) {
            validator(...args);
        }
    }
    dispatchBufferedUpdates() {
        const bufferedUpdates = this.bufferedUpdates;
        while (bufferedUpdates.length) {
            // We have a default update handler, so all updates are dispatchable.
            if (this.defaultUpdateHandler) {
                const update = bufferedUpdates.shift();
                // Logically, this must be defined as we're in the loop.
                // But Typescript doesn't know that so we use a non-null assertion (!).
                this.doUpdate(update);
            }
            else {
                const foundIndex = bufferedUpdates.findIndex((update) => this.updateHandlers.has(update.name));
                if (foundIndex === -1) {
                    // No buffered Updates have a handler yet.
                    break;
                }
                const [update] = bufferedUpdates.splice(foundIndex, 1);
                this.doUpdate(update);
            }
        }
    }
    rejectBufferedUpdates() {
        while (this.bufferedUpdates.length) {
            const update = this.bufferedUpdates.shift();
            if (update) {
                this.rejectUpdate(update.protocolInstanceId, common_1.ApplicationFailure.nonRetryable(`No registered handler for update: ${update.name}`));
            }
        }
    }
    async signalWorkflowNextHandler({ signalName, args }) {
        const fn = this.signalHandlers.get(signalName)?.handler;
        if (fn) {
            return await fn(...args);
        }
        else if (this.defaultSignalHandler) {
            return await this.defaultSignalHandler(signalName, ...args);
        }
        else {
            throw new common_1.IllegalStateError(`No registered signal handler for signal: ${signalName}`);
        }
    }
    signalWorkflow(activation) {
        const { signalName, headers } = activation;
        if (!signalName) {
            throw new TypeError('Missing activation signalName');
        }
        // Reject __temporal_-prefixed signals that would otherwise be routed to the
        // user's default handler. A specific registered handler (e.g. from a
        // contrib package) is allowed through, and unregistered names without a
        // default handler fall through to the buffer-then-reject path below.
        if (signalName.startsWith(reserved_1.TEMPORAL_RESERVED_PREFIX) &&
            !this.signalHandlers.has(signalName) &&
            this.defaultSignalHandler !== undefined) {
            throw new TypeError(`Cannot use signal name: '${signalName}', with reserved prefix: '${reserved_1.TEMPORAL_RESERVED_PREFIX}'`);
        }
        // Skip interceptors if it's an internal signal.
        const isInternalSignal = signalName.startsWith(reserved_1.TEMPORAL_RESERVED_PREFIX) ||
            signalName === reserved_1.STACK_TRACE_QUERY_NAME ||
            signalName === reserved_1.ENHANCED_STACK_TRACE_QUERY_NAME;
        const interceptors = isInternalSignal ? [] : this.interceptors.inbound;
        if (!this.signalHandlers.has(signalName) && !this.defaultSignalHandler) {
            this.bufferedSignals.push(activation);
            return;
        }
        // If we fall through to the default signal handler then the unfinished
        // policy is WARN_AND_ABANDON; users currently have no way to silence any
        // ensuing warnings.
        const signalHandler = this.signalHandlers.get(signalName);
        const unfinishedPolicy = signalHandler?.unfinishedPolicy ?? common_1.HandlerUnfinishedPolicy.WARN_AND_ABANDON;
        const signalExecutionNum = this.signalHandlerExecutionSeq++;
        this.inProgressSignals.set(signalExecutionNum, { name: signalName, unfinishedPolicy });
        const execute = (0, interceptor_composition_1.composeInterceptors)(interceptors, 'handleSignal', this.signalWorkflowNextHandler.bind(this));
        const context = this.workflowSerializationContext();
        const implicitMarker = (0, event_groups_1.createInboundEventMarker)(activation.originatingEventId);
        implicitMarker
            .withScope(() => execute({
            args: (0, common_1.arrayFromPayloads)(this.payloadConverter, activation.input, context, signalHandler?.typeInfo?.inputTypes),
            signalName,
            headers: headers ?? {},
        }))
            .catch(this.handleWorkflowFailure.bind(this))
            .finally(() => this.inProgressSignals.delete(signalExecutionNum));
    }
    dispatchBufferedSignals() {
        const bufferedSignals = this.bufferedSignals;
        while (bufferedSignals.length) {
            if (this.defaultSignalHandler) {
                // We have a default signal handler, so all signals are dispatchable
                this.signalWorkflow(bufferedSignals.shift());
            }
            else {
                const foundIndex = bufferedSignals.findIndex((signal) => this.signalHandlers.has(signal.signalName));
                if (foundIndex === -1)
                    break;
                const [signal] = bufferedSignals.splice(foundIndex, 1);
                this.signalWorkflow(signal);
            }
        }
    }
    resolveSignalExternalWorkflow(activation) {
        const { resolve, reject, context } = this.consumeCompletion('signalWorkflow', getSeq(activation));
        if (activation.failure) {
            reject(this.failureConverter.failureToError(activation.failure, this.payloadConverter, context));
        }
        else {
            resolve(undefined);
        }
    }
    resolveRequestCancelExternalWorkflow(activation) {
        const { resolve, reject, context } = this.consumeCompletion('cancelWorkflow', getSeq(activation));
        if (activation.failure) {
            reject(this.failureConverter.failureToError(activation.failure, this.payloadConverter, context));
        }
        else {
            resolve(undefined);
        }
    }
    warnIfUnfinishedHandlers() {
        if (this.workflowTaskError)
            return;
        const getWarnable = (handlerExecutions) => {
            return Array.from(handlerExecutions).filter((ex) => ex.unfinishedPolicy === common_1.HandlerUnfinishedPolicy.WARN_AND_ABANDON);
        };
        const warnableUpdates = getWarnable(this.inProgressUpdates.values());
        if (warnableUpdates.length > 0) {
            logs_1.log.warn(makeUnfinishedUpdateHandlerMessage(warnableUpdates));
        }
        const warnableSignals = getWarnable(this.inProgressSignals.values());
        if (warnableSignals.length > 0) {
            logs_1.log.warn(makeUnfinishedSignalHandlerMessage(warnableSignals));
        }
    }
    updateRandomSeed(activation) {
        if (!activation.randomnessSeed) {
            throw new TypeError('Expected activation with randomnessSeed attribute');
        }
        this.setRandomnessSeed(activation.randomnessSeed.toBytes());
    }
    notifyHasPatch(activation) {
        if (!this.info.unsafe.isReplaying)
            throw new common_1.IllegalStateError('Unexpected notifyHasPatch job on non-replay activation');
        if (!activation.patchId)
            throw new TypeError('notifyHasPatch missing patch id');
        this.knownPresentPatches.add(activation.patchId);
    }
    patchInternal(patchId, deprecated) {
        if (this.workflow === undefined) {
            throw new common_1.IllegalStateError('Patches cannot be used before Workflow starts');
        }
        const previousDecision = this.patchDecisions.get(patchId);
        if (previousDecision !== undefined) {
            return previousDecision;
        }
        const knownPresent = this.knownPresentPatches.has(patchId);
        // A missing marker during replay is not a final decision because this cached Workflow may
        // subsequently reach live execution, where the patch can activate and record its marker.
        if (this.info.unsafe.isReplaying && !knownPresent) {
            return false;
        }
        const usePatch = !knownPresent && !deprecated && this.patchActivationCallback !== undefined
            ? this.patchActivationCallback(this.info, patchId)
            : true;
        this.patchDecisions.set(patchId, usePatch);
        // Avoid sending commands for patches core already knows about.
        // This optimization enables development of automatic patching tools.
        if (usePatch && !this.sentPatches.has(patchId)) {
            this.pushCommand({
                setPatchMarker: { patchId, deprecated },
                eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(undefined),
            });
            this.sentPatches.add(patchId);
        }
        return usePatch;
    }
    /**
     * Called early while handling an activation to register known flags.
     * May be invoked from outside the VM.
     */
    addKnownFlags(flags) {
        for (const flag of flags) {
            (0, flags_1.assertValidFlag)(flag);
            this.knownFlags.add(flag);
        }
    }
    /**
     * Check if an SDK Flag may be considered as enabled for the current Workflow Task.
     *
     * SDK flags play a role similar to the `patched()` API, but are meant for internal usage by the
     * SDK itself. They make it possible for the SDK to evolve its behaviors over time, while still
     * maintaining compatibility with Workflow histories produced by older SDKs, without causing
     * determinism violations.
     *
     * May be invoked from outside the VM.
     */
    hasFlag(flag) {
        if (this.knownFlags.has(flag.id))
            return true;
        // If not replaying, enable the flag if it is configured to be enabled by default. Setting a
        // flag's default to false allows progressive rollout of new feature flags, with the possibility
        // of reverting back to a version of the SDK where the flag is supported but disabled by default.
        // It is also useful for testing purpose.
        if (!this.info.unsafe.isReplaying && flag.default) {
            this.knownFlags.add(flag.id);
            return true;
        }
        // When replaying, a flag is considered enabled if it was enabled during the original execution of
        // that Workflow Task; this is normally determined by the presence of the flag ID in the corresponding
        // WFT Completed's `sdkMetadata.langUsedFlags`.
        //
        // SDK Flag Alternate Condition provides an alternative way of determining whether a flag should
        // be considered as enabled for the current WFT; e.g. by looking at the version of the SDK that
        // emitted a WFT. The main use case for this is to retroactively turn on some flags for WFT emitted
        // by previous SDKs that contained a bug. Alt Conditions should only be used as a last resort.
        //
        // Note that conditions are only evaluated while replaying. Also, alternate conditions will not
        // cause the flag to be persisted to the "used flags" set, which means that further Workflow Tasks
        // may not reflect this flag if the condition no longer holds. This is so to avoid incorrect
        // behaviors in case where a Workflow Execution has gone through a newer SDK version then again
        // through an older one.
        if (this.info.unsafe.isReplaying && flag.alternativeConditions) {
            for (const cond of flag.alternativeConditions) {
                if (cond({ info: this.info, sdkVersion: this.sdkVersion }))
                    return true;
            }
        }
        return false;
    }
    removeFromCache() {
        throw new common_1.IllegalStateError('removeFromCache activation job should not reach workflow');
    }
    /**
     * Transforms failures into a command to be sent to the server.
     * Used to handle any failure emitted by the Workflow.
     */
    handleWorkflowFailure(error) {
        if (this.cancelled && (0, errors_1.isCancellation)(error)) {
            this.pushCommand({ cancelWorkflowExecution: {} }, true);
        }
        else if (error instanceof interfaces_1.ContinueAsNew) {
            this.pushCommand({
                continueAsNewWorkflowExecution: error.command,
                eventGroupMarkers: error.eventGroupMarkers,
            }, true);
        }
        else if (error instanceof common_1.TemporalFailure || this.isConfiguredFailureException(error)) {
            // Fail the workflow. We do not want to issue unfinishedHandlers warnings. To achieve that, we
            // mark all handlers as completed now.
            this.inProgressSignals.clear();
            this.inProgressUpdates.clear();
            this.pushCommand({
                failWorkflowExecution: {
                    failure: this.errorToFailure((0, common_1.ensureTemporalFailure)(error)),
                },
            }, true);
        }
        else {
            this.recordWorkflowTaskError(error);
        }
    }
    /**
     * Returns true if the given error matches any of the configured failure exception types
     * (from {@link WorkerOptions.workflowFailureErrorTypes} or
     * {@link WorkflowDefinitionOptions.failureExceptionTypes}).
     */
    isConfiguredFailureException(error) {
        // Check class references from WorkflowDefinitionOptions (instanceof-based, supports subclasses)
        if (this.workflowDefinitionFailureExceptionTypes) {
            // We guarantee that including Error in the list will catch _any_ error.
            if (this.workflowDefinitionFailureExceptionTypes.includes(Error))
                return true;
            for (const errorType of this.workflowDefinitionFailureExceptionTypes) {
                if (error instanceof errorType)
                    return true;
            }
        }
        // Check class name strings from WorkerOptions (prototype-chain-based)
        if (this.failureExceptionTypeNames.length > 0) {
            // We guarantee that including 'Error' in the list will catch _any_ error.
            if (this.failureExceptionTypeNames.includes('Error'))
                return true;
            if (typeof error === 'object' && error !== null) {
                let ctor = error.constructor;
                while (ctor != null && ctor !== Function.prototype) {
                    const name = ctor.name;
                    if (name) {
                        if (this.failureExceptionTypeNames.includes(name))
                            return true;
                    }
                    ctor = Object.getPrototypeOf(ctor);
                }
            }
        }
        return false;
    }
    recordWorkflowTaskError(error) {
        // Only keep the first error that bubbles up; subsequent errors will be ignored.
        if (this.workflowTaskError === undefined)
            this.workflowTaskError = error;
        // Immediately rethrow the error if we know it is safe to do so (i.e. we are not running async
        // microtasks). Otherwise, the error will be rethrown whenever we get an opportunity to do so,
        // e.g. the next time `tryUnblockConditions()` is called.
        if (this.rethrowSynchronously)
            this.maybeRethrowWorkflowTaskError();
    }
    /**
     * If a Workflow Task error was captured, and we are running in synchronous mode,
     * then bubble it up now. This is safe to call even if there is no error to rethrow.
     */
    maybeRethrowWorkflowTaskError() {
        if (this.workflowTaskError)
            throw this.workflowTaskError;
    }
    completeQuery(queryId, result, typeInfo) {
        const context = this.workflowSerializationContext();
        this.pushCommand({
            respondToQuery: {
                queryId,
                succeeded: { response: (0, common_1.toPayloadWithTypeInfo)(this.payloadConverter, result, context, typeInfo) },
            },
        });
    }
    failQuery(queryId, error) {
        this.pushCommand({
            respondToQuery: {
                queryId,
                failed: this.errorToFailure((0, common_1.ensureTemporalFailure)(error)),
            },
        });
    }
    acceptUpdate(protocolInstanceId) {
        this.pushCommand({ updateResponse: { protocolInstanceId, accepted: {} } });
    }
    completeUpdate(protocolInstanceId, result, typeInfo) {
        const context = this.workflowSerializationContext();
        this.pushCommand({
            updateResponse: {
                protocolInstanceId,
                completed: (0, common_1.toPayloadWithTypeInfo)(this.payloadConverter, result, context, typeInfo),
            },
        });
    }
    rejectUpdate(protocolInstanceId, error) {
        this.pushCommand({
            updateResponse: {
                protocolInstanceId,
                rejected: this.errorToFailure((0, common_1.ensureTemporalFailure)(error)),
            },
        });
    }
    /** Consume a completion if it exists in Workflow state */
    maybeConsumeCompletion(type, taskSeq) {
        const completion = this.completions[type].get(taskSeq);
        if (completion !== undefined) {
            this.completions[type].delete(taskSeq);
        }
        return completion;
    }
    /** Consume a completion if it exists in Workflow state, throws if it doesn't */
    consumeCompletion(type, taskSeq) {
        const completion = this.maybeConsumeCompletion(type, taskSeq);
        if (completion === undefined) {
            throw new common_1.IllegalStateError(`No completion for taskSeq ${taskSeq}`);
        }
        return completion;
    }
    completeWorkflow(result) {
        const context = this.workflowSerializationContext();
        this.pushCommand({
            completeWorkflowExecution: {
                result: (0, common_1.toPayloadWithTypeInfo)(this.payloadConverter, result, context, this.typeInfo?.outputType),
            },
        }, true);
    }
    errorToFailure(err) {
        const context = this.workflowSerializationContext();
        return this.failureConverter.errorToFailure(err, this.payloadConverter, context);
    }
    failureToError(failure) {
        const context = this.workflowSerializationContext();
        return this.failureConverter.failureToError(failure, this.payloadConverter, context);
    }
    workflowSerializationContext() {
        return {
            type: 'workflow',
            namespace: this.info.namespace,
            workflowId: this.info.workflowId,
        };
    }
}
exports.Activator = Activator;
function getSeq(activation) {
    const seq = activation.seq;
    if (seq == null) {
        throw new TypeError(`Got activation with no seq attribute`);
    }
    return seq;
}
function makeUnfinishedUpdateHandlerMessage(handlerExecutions) {
    const message = `
[TMPRL1102] Workflow finished while an update handler was still running. This may have interrupted work that the
update handler was doing, and the client that sent the update will receive a 'workflow execution
already completed' RPCError instead of the update result. You can wait for all update and signal
handlers to complete by using \`await workflow.condition(workflow.allHandlersFinished)\`.
Alternatively, if both you and the clients sending the update are okay with interrupting running handlers
when the workflow finishes, and causing clients to receive errors, then you can disable this warning by
passing an option when setting the handler:
\`workflow.setHandler(myUpdate, myUpdateHandler, {unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON});\`.`
        .replace(/\n/g, ' ')
        .trim();
    return `${message} The following updates were unfinished (and warnings were not disabled for their handler): ${JSON.stringify(handlerExecutions.map((ex) => ({ name: ex.name, id: ex.id })))}`;
}
function makeUnfinishedSignalHandlerMessage(handlerExecutions) {
    const message = `
[TMPRL1102] Workflow finished while a signal handler was still running. This may have interrupted work that the
signal handler was doing. You can wait for all update and signal handlers to complete by using
\`await workflow.condition(workflow.allHandlersFinished)\`. Alternatively, if both you and the
clients sending the update are okay with interrupting running handlers when the workflow finishes,
then you can disable this warning by passing an option when setting the handler:
\`workflow.setHandler(mySignal, mySignalHandler, {unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON});\`.`
        .replace(/\n/g, ' ')
        .trim();
    const names = new Map();
    for (const ex of handlerExecutions) {
        const count = names.get(ex.name) || 0;
        names.set(ex.name, count + 1);
    }
    return `${message} The following signals were unfinished (and warnings were not disabled for their handler): ${JSON.stringify(Array.from(names.entries()).map(([name, count]) => ({ name, count })))}`;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/logs.js"
/*!*******************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/logs.js ***!
  \*******************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.log = void 0;
exports.executeWithLifecycleLogging = executeWithLifecycleLogging;
exports.workflowLogAttributes = workflowLogAttributes;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const interceptor_composition_1 = __webpack_require__(/*! ./interceptor-composition */ "./node_modules/@temporalio/workflow/lib/interceptor-composition.js");
const stack_helpers_1 = __webpack_require__(/*! ./stack-helpers */ "./node_modules/@temporalio/workflow/lib/stack-helpers.js");
const sinks_1 = __webpack_require__(/*! ./sinks */ "./node_modules/@temporalio/workflow/lib/sinks.js");
const errors_1 = __webpack_require__(/*! ./errors */ "./node_modules/@temporalio/workflow/lib/errors.js");
const interfaces_1 = __webpack_require__(/*! ./interfaces */ "./node_modules/@temporalio/workflow/lib/interfaces.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const workflow_1 = __webpack_require__(/*! ./workflow */ "./node_modules/@temporalio/workflow/lib/workflow.js");
const loggerSink = (0, sinks_1.proxySinks)().__temporal_logger;
/**
 * Symbol used by the SDK logger to extract a timestamp from log attributes.
 * Also defined in `worker/logger.ts` - intentionally not shared.
 */
const LogTimestamp = Symbol.for('log_timestamp');
/**
 * Default workflow logger.
 *
 * This logger is replay-aware and will omit log messages on workflow replay. Messages emitted by this logger are
 * funnelled through a sink that forwards them to the logger registered on {@link Runtime.logger}.
 *
 * Attributes from the current Workflow Execution context are automatically included as metadata on every log
 * entries. An extra `sdkComponent` metadata attribute is also added, with value `workflow`; this can be used for
 * fine-grained filtering of log entries further downstream.
 *
 * To customize log attributes, register a {@link WorkflowOutboundCallsInterceptor} that intercepts the
 * `getLogAttributes()` method.
 *
 * Notice that since sinks are used to power this logger, any log attributes must be transferable via the
 * {@link https://nodejs.org/api/worker_threads.html#worker_threads_port_postmessage_value_transferlist | postMessage}
 * API.
 *
 * NOTE: Specifying a custom logger through {@link defaultSink} or by manually registering a sink named
 * `defaultWorkerLogger` has been deprecated. Please use {@link Runtime.logger} instead.
 */
exports.log = Object.fromEntries(['trace', 'debug', 'info', 'warn', 'error'].map((level) => {
    return [
        level,
        (message, attrs) => {
            const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.log(...) may only be used from workflow context.');
            const getLogAttributes = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'getLogAttributes', (a) => a);
            return loggerSink[level](message, {
                // Inject the call time in nanosecond resolution as expected by the worker logger.
                [LogTimestamp]: activator.getTimeOfDay(),
                sdkComponent: common_1.SdkComponent.workflow,
                ...getLogAttributes(workflowLogAttributes(activator.info)),
                ...attrs,
            });
        },
    ];
}));
function executeWithLifecycleLogging(fn) {
    exports.log.debug('Workflow started', { sdkComponent: common_1.SdkComponent.worker });
    const p = fn().then((res) => {
        exports.log.debug('Workflow completed', { sdkComponent: common_1.SdkComponent.worker });
        return res;
    }, (error) => {
        // Avoid using instanceof checks in case the modules they're defined in loaded more than once,
        // e.g. by jest or when multiple versions are installed.
        if (typeof error === 'object' && error != null) {
            if ((0, errors_1.isCancellation)(error)) {
                exports.log.debug('Workflow completed as cancelled', { sdkComponent: common_1.SdkComponent.worker });
                throw error;
            }
            else if (error instanceof interfaces_1.ContinueAsNew) {
                exports.log.debug('Workflow continued as new', { sdkComponent: common_1.SdkComponent.worker });
                throw error;
            }
        }
        exports.log.warn('Workflow failed', { error, sdkComponent: common_1.SdkComponent.worker });
        throw error;
    });
    // Avoid showing this interceptor in stack trace query
    (0, stack_helpers_1.untrackPromise)(p);
    return p;
}
/**
 * Returns a map of attributes to be set _by default_ on log messages for a given Workflow.
 * Note that this function may be called from outside of the Workflow context (eg. by the worker itself).
 */
function workflowLogAttributes(info) {
    const attributes = {
        namespace: info.namespace,
        taskQueue: info.taskQueue,
        workflowId: info.workflowId,
        runId: info.runId,
        workflowType: info.workflowType,
    };
    if ((0, workflow_1.inWorkflowContext)()) {
        const updateInfo = (0, workflow_1.currentUpdateInfo)();
        if (updateInfo) {
            // Add update info if it exists
            attributes['updateId'] = updateInfo.id;
            attributes['updateName'] = updateInfo.name;
        }
    }
    return attributes;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/metrics.js"
/*!**********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/metrics.js ***!
  \**********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.metricMeter = void 0;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const interceptor_composition_1 = __webpack_require__(/*! ./interceptor-composition */ "./node_modules/@temporalio/workflow/lib/interceptor-composition.js");
const sinks_1 = __webpack_require__(/*! ./sinks */ "./node_modules/@temporalio/workflow/lib/sinks.js");
const workflow_1 = __webpack_require__(/*! ./workflow */ "./node_modules/@temporalio/workflow/lib/workflow.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
class WorkflowMetricMeterImpl {
    constructor() { }
    createCounter(name, unit, description) {
        (0, global_attributes_1.assertInWorkflowContext)("Workflow's `metricMeter` can only be used while in Workflow Context");
        return new WorkflowMetricCounter(name, unit, description);
    }
    createHistogram(name, valueType = 'int', unit, description) {
        (0, global_attributes_1.assertInWorkflowContext)("Workflow's `metricMeter` can only be used while in Workflow Context");
        return new WorkflowMetricHistogram(name, valueType, unit, description);
    }
    createGauge(name, valueType = 'int', unit, description) {
        (0, global_attributes_1.assertInWorkflowContext)("Workflow's `metricMeter` can only be used while in Workflow Context");
        return new WorkflowMetricGauge(name, valueType, unit, description);
    }
    withTags(_tags) {
        (0, global_attributes_1.assertInWorkflowContext)("Workflow's `metricMeter` can only be used while in Workflow Context");
        // Tags composition is handled by a MetricMeterWithComposedTags wrapper over this one
        throw new Error(`withTags is not supported directly on WorkflowMetricMeter`);
    }
}
class WorkflowMetricCounter {
    name;
    unit;
    description;
    kind = 'counter';
    valueType = 'int';
    constructor(name, unit, description) {
        this.name = name;
        this.unit = unit;
        this.description = description;
    }
    add(value, extraTags = {}) {
        if (value < 0) {
            throw new Error(`MetricCounter value must be non-negative (got ${value})`);
        }
        if (!(0, workflow_1.workflowInfo)().unsafe.isReplaying) {
            metricSink.addMetricCounterValue(this.name, this.unit, this.description, value, extraTags);
        }
    }
    withTags(_tags) {
        // Tags composition is handled by a MetricMeterWithComposedTags wrapper over this one
        throw new Error(`withTags is not supported directly on WorkflowMetricCounter`);
    }
}
class WorkflowMetricHistogram {
    name;
    valueType;
    unit;
    description;
    kind = 'histogram';
    constructor(name, valueType, unit, description) {
        this.name = name;
        this.valueType = valueType;
        this.unit = unit;
        this.description = description;
    }
    record(value, extraTags = {}) {
        if (value < 0) {
            throw new Error(`MetricHistogram value must be non-negative (got ${value})`);
        }
        if (!(0, workflow_1.workflowInfo)().unsafe.isReplaying) {
            metricSink.recordMetricHistogramValue(this.name, this.valueType, this.unit, this.description, value, extraTags);
        }
    }
    withTags(_tags) {
        // Tags composition is handled by a MetricMeterWithComposedTags wrapper over this one
        throw new Error(`withTags is not supported directly on WorkflowMetricHistogram`);
    }
}
class WorkflowMetricGauge {
    name;
    valueType;
    unit;
    description;
    kind = 'gauge';
    constructor(name, valueType, unit, description) {
        this.name = name;
        this.valueType = valueType;
        this.unit = unit;
        this.description = description;
    }
    set(value, tags) {
        if (value < 0) {
            throw new Error(`MetricGauge value must be non-negative (got ${value})`);
        }
        if (!(0, workflow_1.workflowInfo)().unsafe.isReplaying) {
            metricSink.setMetricGaugeValue(this.name, this.valueType, this.unit, this.description, value, tags ?? {});
        }
    }
    withTags(_tags) {
        // Tags composition is handled by a MetricMeterWithComposedTags wrapper over this one
        throw new Error(`withTags is not supported directly on WorkflowMetricGauge`);
    }
}
////////////////////////////////////////////////////////////////////////////////////////////////////
// Note: given that forwarding metrics outside of the sanbox can be quite chatty and add non
// negligeable overhead, we eagerly check for `isReplaying` and completely skip doing sink
// calls if we are replaying.
const metricSink = (0, sinks_1.proxySinks)().__temporal_metrics;
/**
 * A MetricMeter that can be used to emit metrics from within a Workflow.
 *
 * @experimental The Metric API is an experimental feature and may be subject to change.
 */
exports.metricMeter = common_1.MetricMeterWithComposedTags.compose(new WorkflowMetricMeterImpl(), () => {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.metricMeter may only be used from workflow context.');
    const getMetricTags = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'getMetricTags', (a) => a);
    const info = activator.info;
    return getMetricTags({
        // namespace and taskQueue will be added by the Worker
        workflowType: info.workflowType,
    });
}, true);


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/nexus.js"
/*!********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/nexus.js ***!
  \********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.NexusOperationCancellationType = void 0;
exports.createNexusServiceClient = createNexusServiceClient;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const time_1 = __webpack_require__(/*! @temporalio/common/lib/time */ "./node_modules/@temporalio/common/lib/time.js");
const user_metadata_1 = __webpack_require__(/*! @temporalio/common/lib/user-metadata */ "./node_modules/@temporalio/common/lib/user-metadata.js");
const enums_helpers_1 = __webpack_require__(/*! @temporalio/common/lib/internal-workflow/enums-helpers */ "./node_modules/@temporalio/common/lib/internal-workflow/enums-helpers.js");
const event_groups_1 = __webpack_require__(/*! ./event-groups */ "./node_modules/@temporalio/workflow/lib/event-groups.js");
const cancellation_scope_1 = __webpack_require__(/*! ./cancellation-scope */ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const interceptor_composition_1 = __webpack_require__(/*! ./interceptor-composition */ "./node_modules/@temporalio/workflow/lib/interceptor-composition.js");
const stack_helpers_1 = __webpack_require__(/*! ./stack-helpers */ "./node_modules/@temporalio/workflow/lib/stack-helpers.js");
/**
 * Create a Nexus client for invoking Nexus Operations from a Workflow.
 *
 */
function createNexusServiceClient(options) {
    class NexusServiceClientImpl {
        async executeOperation(operation, input, operationOptions) {
            const handle = await this.startOperation(operation, input, operationOptions);
            return await handle.result();
        }
        async startOperation(operation, input, operationOptions) {
            let operationDefinition;
            if (typeof operation === 'string') {
                operationDefinition = options.service.operations[operation];
            }
            else {
                operationDefinition = operation;
            }
            // Casting as string to cover up the fact that `opName` might be undefined.
            // If this happens, then `execute` will produce a `NexusOperationFailure.NOT_FOUND`.
            const opName = operationDefinition?.name;
            const activator = (0, global_attributes_1.getActivator)();
            const seq = activator.nextSeqs.nexusOperation++;
            const execute = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'startNexusOperation', startNexusOperationNextHandler);
            // The interceptor returns a Promise<StartNexusOperationOutput>, with the result promise contained
            // in that Output object. As a consequence of this, the result promise/completion does not exist
            // until the StartNexusOperation event is received. This is totally different from what we did in
            // ChildWorkflow, but is much cleaner from the interceptors point of view.
            const { token, result: resultPromise } = await execute({
                endpoint: options.endpoint,
                service: options.service.name,
                operation: opName,
                options: {
                    ...operationOptions,
                    cancellationType: operationOptions?.cancellationType ?? 'WAIT_CANCELLATION_COMPLETED',
                },
                headers: {},
                seq,
                input,
                inputType: operationDefinition?.inputType,
                outputType: operationDefinition?.outputType,
            });
            return {
                service: options.service.name,
                operation: opName,
                token,
                async result() {
                    return resultPromise;
                },
            };
        }
    }
    return new NexusServiceClientImpl();
}
function startNexusOperationNextHandler({ input, endpoint, service, options, operation, seq, headers, inputType, outputType, }) {
    const activator = (0, global_attributes_1.getActivator)();
    const context = {
        type: 'workflow',
        namespace: activator.info.namespace,
        workflowId: activator.info.workflowId,
    };
    return new Promise((resolve, reject) => {
        const scope = cancellation_scope_1.CancellationScope.current();
        if (scope.consideredCancelled) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            return;
        }
        if (scope.cancellable) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(() => {
                const completed = !activator.completions.nexusOperationStart.has(seq) &&
                    !activator.completions.nexusOperationComplete.has(seq);
                if (!completed) {
                    activator.pushCommand({
                        requestCancelNexusOperation: { seq },
                        eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options?.eventGroups),
                    });
                }
                // Nothing to cancel otherwise
            }));
        }
        activator.pushCommand({
            scheduleNexusOperation: {
                seq,
                endpoint,
                service,
                operation,
                nexusHeader: headers,
                input: (0, common_1.toPayloadWithTypeInfo)(activator.payloadConverter, input, context, inputType),
                scheduleToCloseTimeout: (0, time_1.msOptionalToTs)(options?.scheduleToCloseTimeout),
                scheduleToStartTimeout: (0, time_1.msOptionalToTs)(options?.scheduleToStartTimeout),
                startToCloseTimeout: (0, time_1.msOptionalToTs)(options?.startToCloseTimeout),
                cancellationType: encodeNexusOperationCancellationType(options?.cancellationType),
            },
            userMetadata: (0, user_metadata_1.userMetadataToPayload)(activator.payloadConverter, options?.summary, undefined, context),
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options?.eventGroups),
        });
        activator.completions.nexusOperationStart.set(seq, {
            resolve,
            reject,
            outputTypeInfo: outputType,
        });
    });
}
/**
 * Determines:
 * - whether cancellation requests should be propagated from the Workflow to the Nexus Operation
 * - whether and when should the Operation's cancellation be reported back to the Workflow
 *   (i.e. at which moment should the operation's result promise fail with a `NexusOperationFailure`,
 *   with `cause` set to a `CancelledFailure`).
 *
 * Note that this setting only applies to cancellation originating from an external request for the
 * Workflow itself, or from internal cancellation of the `CancellationScope` in which the
 * Operation call was made.
 *
 */
// MAINTENANCE: Keep this typedoc in sync with the `StartNexusOperationOptions.cancellationType` field
exports.NexusOperationCancellationType = {
    /**
     * Do not propagate cancellation requests to the Nexus Operation, and immediately report
     * cancellation to the caller.
     */
    ABANDON: 'ABANDON',
    /**
     * Initiate a cancellation request for the Nexus operation and immediately report cancellation to
     * the caller. Note that it doesn't guarantee that cancellation is delivered to the operation if
     * calling workflow exits before the delivery is done. If you want to ensure that cancellation is
     * delivered to the operation, use {@link WAIT_CANCELLATION_REQUESTED}.
     *
     * Propagate cancellation request from the Workflow to the Operation, yet _immediately_ report
     * cancellation to the caller, i.e. without waiting for the server to confirm the cancellation
     * request.
     *
     * Note that this cancellation type provides no guarantee, from the Workflow-side, that the
     * cancellation request will be delivered to the Operation Handler. In particular, either the
     * Operation or the Workflow may complete (either successfully or uncessfully) before the
     * cancellation request is delivered, resulting in a situation where the Operation completed
     * successfully, but the Workflow thinks it was cancelled.
     *
     * To guarantee that the Operation will eventually be notified of the cancellation request,
     * use {@link WAIT_CANCELLATION_REQUESTED}.
     */
    TRY_CANCEL: 'TRY_CANCEL',
    /**
     * Propagate cancellation request from the Workflow to the Operation, then wait for the server
     * to confirm that the Operation cancellation request was delivered to the Operation Handler.
     */
    WAIT_CANCELLATION_REQUESTED: 'WAIT_CANCELLATION_REQUESTED',
    /**
     * Propagate cancellation request from the Workflow to the Operation, then wait for completion
     * of the Operation.
     */
    WAIT_CANCELLATION_COMPLETED: 'WAIT_CANCELLATION_COMPLETED',
};
const [encodeNexusOperationCancellationType, _] = (0, enums_helpers_1.makeProtoEnumConverters)({
    [exports.NexusOperationCancellationType.WAIT_CANCELLATION_COMPLETED]: 0,
    [exports.NexusOperationCancellationType.ABANDON]: 1,
    [exports.NexusOperationCancellationType.TRY_CANCEL]: 2,
    [exports.NexusOperationCancellationType.WAIT_CANCELLATION_REQUESTED]: 3,
}, '');


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/pkg.js"
/*!******************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/pkg.js ***!
  \******************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
// ../package.json is outside of the TS project rootDir which causes TS to complain about this import.
// We do not want to change the rootDir because it messes up the output structure.
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
const package_json_1 = __importDefault(__webpack_require__(/*! ../package.json */ "./node_modules/@temporalio/workflow/package.json"));
exports["default"] = package_json_1.default;


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/random-helpers.js"
/*!*****************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/random-helpers.js ***!
  \*****************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.fillWithRandom = fillWithRandom;
exports.uuid4FromRandom = uuid4FromRandom;
exports.createUnsafeRandomSource = createUnsafeRandomSource;
function fillWithRandom(random, bytes) {
    for (let i = 0; i < bytes.length; ++i) {
        bytes[i] = Math.floor(random() * 0x100);
    }
    return bytes;
}
function uuid4FromRandom(random) {
    const ho = (n, p) => n.toString(16).padStart(p, '0');
    const view = new DataView(new ArrayBuffer(16));
    view.setUint32(0, (random() * 0x100000000) >>> 0);
    view.setUint32(4, (random() * 0x100000000) >>> 0);
    view.setUint32(8, (random() * 0x100000000) >>> 0);
    view.setUint32(12, (random() * 0x100000000) >>> 0);
    view.setUint8(6, (view.getUint8(6) & 0xf) | 0x40);
    view.setUint8(8, (view.getUint8(8) & 0x3f) | 0x80);
    return `${ho(view.getUint32(0), 8)}-${ho(view.getUint16(4), 4)}-${ho(view.getUint16(6), 4)}-${ho(view.getUint16(8), 4)}-${ho(view.getUint32(10), 8)}${ho(view.getUint16(14), 4)}`;
}
function createUnsafeRandomSource(random) {
    const source = {
        random,
        uuid4: () => uuid4FromRandom(random),
        fillRandom: (bytes) => fillWithRandom(random, bytes),
    };
    // Omit from JSON like `now`: the methods otherwise stringify to a misleading empty {}.
    Object.defineProperty(source, 'toJSON', { value: () => undefined, enumerable: true });
    return source;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/random-stream-seed.js"
/*!*********************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/random-stream-seed.js ***!
  \*********************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.deriveAleaSeed = deriveAleaSeed;
const encoding_1 = __webpack_require__(/*! @temporalio/common/lib/encoding */ "./node_modules/@temporalio/common/lib/encoding.js");
const RANDOM_STREAM_SEED_PREFIX = Array.from((0, encoding_1.encode)('temporal-workflow-random-stream-v1'));
function encodeU32(value) {
    return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}
function deriveAleaSeed(seed, namespace) {
    const namespaceBytes = Array.from((0, encoding_1.encode)(namespace));
    return [
        ...RANDOM_STREAM_SEED_PREFIX,
        ...encodeU32(seed.length),
        ...seed,
        ...encodeU32(namespaceBytes.length),
        ...namespaceBytes,
    ];
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/random-streams.js"
/*!*****************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/random-streams.js ***!
  \*****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.workflowRandom = void 0;
exports.getRandomStream = getRandomStream;
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const random_helpers_1 = __webpack_require__(/*! ./random-helpers */ "./node_modules/@temporalio/workflow/lib/random-helpers.js");
class ActivatorRandomStream {
    activator;
    name;
    constructor(activator, name) {
        this.activator = activator;
        this.name = name;
    }
    random() {
        return this.activator.getNamedRandom(this.name)();
    }
    uuid4() {
        return (0, random_helpers_1.uuid4FromRandom)(() => this.random());
    }
    fill(bytes) {
        return (0, random_helpers_1.fillWithRandom)(() => this.random(), bytes);
    }
    with(fn) {
        return this.activator.withCurrentRandom(this, fn);
    }
}
class DefaultWorkflowRandomStream {
    random() {
        return (0, global_attributes_1.assertInWorkflowContext)('Workflow.workflowRandom may only be used from workflow context.').random();
    }
    uuid4() {
        return (0, random_helpers_1.uuid4FromRandom)(() => this.random());
    }
    fill(bytes) {
        return (0, random_helpers_1.fillWithRandom)(() => this.random(), bytes);
    }
    with(fn) {
        const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.workflowRandom may only be used from workflow context.');
        return activator.withCurrentRandom(this, fn);
    }
}
/**
 * The default deterministic random stream for the current workflow execution.
 *
 * This exposes the same underlying sequence used by workflow-level `Math.random()`
 * when no named override is active. It can be useful for plugin/interceptor code
 * that wants an explicit handle to the main workflow random stream, including from
 * inside a temporary named scope established by another `WorkflowRandomStream`.
 *
 * @experimental This API may be removed or changed in the future.
 */
exports.workflowRandom = new DefaultWorkflowRandomStream();
/**
 * Get a named deterministic random stream for the current workflow execution.
 *
 * Named streams are derived from the workflow seed and a stable stream name,
 * without consuming the workflow's default `Math.random()` stream. Repeated
 * calls with the same `name` within a workflow execution refer to the same
 * logical stream state, including across activations.
 *
 * This is the preferred entry point for workflow plugins and interceptors that
 * need their own deterministic entropy. Use stable package- or module-style
 * names so the stream identity remains replay-safe, then keep the returned
 * `WorkflowRandomStream` around and call its methods directly.
 *
 * @experimental This API may be removed or changed in the future.
 */
function getRandomStream(name) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.getRandomStream(...) may only be used from workflow context.');
    return new ActivatorRandomStream(activator, name);
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/sha1.js"
/*!*******************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/sha1.js ***!
  \*******************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.sha1Hex = sha1Hex;
const encoding_1 = __webpack_require__(/*! @temporalio/common/lib/encoding */ "./node_modules/@temporalio/common/lib/encoding.js");
/**
 * Minimal SHA-1 implementation, for use inside the Workflow sandbox. This implementation
 * relies only on plain arithmetic, without requirement on the `crypto` module or any other
 * Node built-in.
 *
 * @internal
 */
function sha1Hex(input) {
    const message = (0, encoding_1.encode)(input);
    const messageBitLength = message.length * 8;
    // Padding: append 0x80, then 0x00 until the length is congruent to 56 (mod 64), then the original
    // message length as a 64-bit big-endian integer.
    const data = new Uint8Array(Math.ceil((message.length + 9) / 64) * 64);
    data.set(message);
    data[message.length] = 0x80;
    const hiLen = Math.floor(messageBitLength / 0x100000000);
    const loLen = messageBitLength >>> 0;
    const lengthPos = data.length - 8;
    data[lengthPos] = (hiLen >>> 24) & 0xff;
    data[lengthPos + 1] = (hiLen >>> 16) & 0xff;
    data[lengthPos + 2] = (hiLen >>> 8) & 0xff;
    data[lengthPos + 3] = hiLen & 0xff;
    data[lengthPos + 4] = (loLen >>> 24) & 0xff;
    data[lengthPos + 5] = (loLen >>> 16) & 0xff;
    data[lengthPos + 6] = (loLen >>> 8) & 0xff;
    data[lengthPos + 7] = loLen & 0xff;
    let h0 = 0x67452301;
    let h1 = 0xefcdab89;
    let h2 = 0x98badcfe;
    let h3 = 0x10325476;
    let h4 = 0xc3d2e1f0;
    const w = new Uint32Array(80);
    for (let chunk = 0; chunk < data.length; chunk += 64) {
        for (let i = 0; i < 16; i++) {
            const j = chunk + i * 4;
            w[i] =
                (((data[j] ?? 0) << 24) | ((data[j + 1] ?? 0) << 16) | ((data[j + 2] ?? 0) << 8) | (data[j + 3] ?? 0)) >>> 0;
        }
        for (let i = 16; i < 80; i++) {
            w[i] = rotl((w[i - 3] ?? 0) ^ (w[i - 8] ?? 0) ^ (w[i - 14] ?? 0) ^ (w[i - 16] ?? 0), 1);
        }
        let a = h0;
        let b = h1;
        let c = h2;
        let d = h3;
        let e = h4;
        for (let i = 0; i < 80; i++) {
            let f;
            let k;
            if (i < 20) {
                f = (b & c) | (~b & d);
                k = 0x5a827999;
            }
            else if (i < 40) {
                f = b ^ c ^ d;
                k = 0x6ed9eba1;
            }
            else if (i < 60) {
                f = (b & c) | (b & d) | (c & d);
                k = 0x8f1bbcdc;
            }
            else {
                f = b ^ c ^ d;
                k = 0xca62c1d6;
            }
            const temp = (rotl(a, 5) + (f >>> 0) + (e >>> 0) + k + (w[i] ?? 0)) >>> 0;
            e = d;
            d = c;
            c = rotl(b, 30);
            b = a;
            a = temp;
        }
        h0 = (h0 + a) >>> 0;
        h1 = (h1 + b) >>> 0;
        h2 = (h2 + c) >>> 0;
        h3 = (h3 + d) >>> 0;
        h4 = (h4 + e) >>> 0;
    }
    return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}
/** Rotate a 32-bit value left by `n` bits. */
function rotl(value, n) {
    return ((value << n) | (value >>> (32 - n))) >>> 0;
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/sinks.js"
/*!********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/sinks.js ***!
  \********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

/**
 * Type definitions for the Workflow end of the sinks mechanism.
 *
 * Sinks are a mechanism for exporting data from the Workflow isolate to the
 * Node.js environment, they are necessary because the Workflow has no way to
 * communicate with the outside World.
 *
 * Sinks are typically used for exporting logs, metrics and traces out from the
 * Workflow.
 *
 * Sink functions may not return values to the Workflow in order to prevent
 * breaking determinism.
 *
 * @module
 */
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.proxySinks = proxySinks;
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
/**
 * Get a reference to Sinks for exporting data out of the Workflow.
 *
 * These Sinks **must** be registered with the Worker in order for this
 * mechanism to work.
 *
 * @example
 * ```ts
 * import { proxySinks, Sinks } from '@temporalio/workflow';
 *
 * interface MySinks extends Sinks {
 *   logger: {
 *     info(message: string): void;
 *     error(message: string): void;
 *   };
 * }
 *
 * const { logger } = proxySinks<MyDependencies>();
 * logger.info('setting up');
 *
 * export function myWorkflow() {
 *   return {
 *     async execute() {
 *       logger.info("hey ho");
 *       logger.error("lets go");
 *     }
 *   };
 * }
 * ```
 */
function proxySinks() {
    return new Proxy({}, {
        get(_, ifaceName) {
            return new Proxy({}, {
                get(_, fnName) {
                    return (...args) => {
                        const activator = (0, global_attributes_1.assertInWorkflowContext)('Proxied sinks functions may only be used from a Workflow Execution.');
                        activator.sinkCalls.push({
                            ifaceName: ifaceName,
                            fnName: fnName,
                            // Sink function doesn't get called immediately. Make a clone of the sink's args, so that further mutations
                            // to these objects don't corrupt the args that the sink function will receive. Only available from node 17.
                            args: globalThis.structuredClone ? globalThis.structuredClone(args) : args,
                            // activator.info is internally copy-on-write. This ensure that any further mutations
                            // to the workflow state in the context of the present activation will not corrupt the
                            // workflowInfo state that gets passed when the sink function actually gets called.
                            workflowInfo: activator.info,
                        });
                    };
                },
            });
        },
    });
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/stack-helpers.js"
/*!****************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/stack-helpers.js ***!
  \****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.untrackPromise = untrackPromise;
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
/**
 * Helper function to remove a promise from being tracked for stack trace query purposes
 */
function untrackPromise(promise) {
    const store = (0, global_attributes_1.maybeGetActivator)()?.promiseStackStore;
    if (!store)
        return;
    store.childToParent.delete(promise);
    store.promiseToStack.delete(promise);
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/trigger.js"
/*!**********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/trigger.js ***!
  \**********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.Trigger = void 0;
const cancellation_scope_1 = __webpack_require__(/*! ./cancellation-scope */ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js");
const stack_helpers_1 = __webpack_require__(/*! ./stack-helpers */ "./node_modules/@temporalio/workflow/lib/stack-helpers.js");
/**
 * A `PromiseLike` helper which exposes its `resolve` and `reject` methods.
 *
 * Trigger is CancellationScope-aware: it is linked to the current scope on
 * construction and throws when that scope is cancelled.
 *
 * Useful for e.g. waiting for unblocking a Workflow from a Signal.
 *
 * @example
 * ```ts
 * import { defineSignal, setHandler, sleep, Trigger } from '@temporalio/workflow';
 *
 * const completeUserInteraction = defineSignal('completeUserInteraction');
 *
 * export async function waitOnUser(userId: string): Promise<void> {
 *   const userInteraction = new Trigger<boolean>();
 *
 *   // programmatically resolve Trigger
 *   setHandler(completeUserInteraction, () => userInteraction.resolve(true));
 *
 *   const userInteracted = await Promise.race([userInteraction, sleep('30 days')]);
 *   if (!userInteracted) {
 *     await sendReminderEmail(userId);
 *   }
 * }
 * ```
 */
class Trigger {
    // Typescript does not realize that the promise executor is run synchronously in the constructor
    // eslint-disable-next-line @typescript-eslint/ban-ts-comment
    // @ts-ignore
    resolve;
    // eslint-disable-next-line @typescript-eslint/ban-ts-comment
    // @ts-ignore
    reject;
    promise;
    constructor() {
        this.promise = new Promise((resolve, reject) => {
            const scope = cancellation_scope_1.CancellationScope.current();
            if (scope.cancellable) {
                (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            }
            // eslint-disable-next-line @typescript-eslint/ban-ts-comment
            // @ts-ignore
            this.resolve = resolve;
            // eslint-disable-next-line @typescript-eslint/ban-ts-comment
            // @ts-ignore
            this.reject = reject;
        });
        // Avoid unhandled rejections
        (0, stack_helpers_1.untrackPromise)(this.promise.catch(() => undefined));
    }
    then(onfulfilled, onrejected) {
        return this.promise.then(onfulfilled, onrejected);
    }
}
exports.Trigger = Trigger;


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/update-scope.js"
/*!***************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/update-scope.js ***!
  \***************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.UpdateScope = exports.AsyncLocalStorage = void 0;
// AsyncLocalStorage is injected via vm module into global scope.
// In case Workflow code is imported in Node.js context, replace with an empty class.
exports.AsyncLocalStorage = globalThis.AsyncLocalStorage ?? class {
};
class UpdateScope {
    /**
     *  A workflow-unique identifier for this update.
     */
    id;
    /**
     *  The update type name.
     */
    name;
    constructor(options) {
        this.id = options.id;
        this.name = options.name;
    }
    /**
     * Activate the scope as current and run the update handler `fn`.
     *
     * @return the result of `fn`
     */
    run(fn) {
        return storage.run(this, fn);
    }
    /**
     * Get the current "active" update scope.
     */
    static current() {
        return storage.getStore();
    }
    /** Alias to `new UpdateScope({ id, name }).run(fn)` */
    static updateWithInfo(id, name, fn) {
        return new this({ id, name }).run(fn);
    }
}
exports.UpdateScope = UpdateScope;
const storage = new exports.AsyncLocalStorage();


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/worker-interface.js"
/*!*******************************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/worker-interface.js ***!
  \*******************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.initRuntime = initRuntime;
exports.initialize = initialize;
exports.activate = activate;
exports.concludeActivation = concludeActivation;
exports.tryUnblockConditions = tryUnblockConditions;
exports.dispose = dispose;
exports.destroy = destroy;
/**
 * Exported functions for the Worker to interact with the Workflow isolate
 *
 * @module
 */
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const internals_1 = __webpack_require__(/*! ./internals */ "./node_modules/@temporalio/workflow/lib/internals.js");
const interceptor_composition_1 = __webpack_require__(/*! ./interceptor-composition */ "./node_modules/@temporalio/workflow/lib/interceptor-composition.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const random_helpers_1 = __webpack_require__(/*! ./random-helpers */ "./node_modules/@temporalio/workflow/lib/random-helpers.js");
const OriginalDate = globalThis.Date;
const OriginalMathRandom = globalThis.Math.random;
/**
 * Initialize the isolate runtime.
 *
 * Sets required internal state and instantiates the workflow and interceptors.
 */
function initRuntime(options) {
    const activator = new internals_1.Activator({
        ...options,
        info: fixPrototypes({
            ...options.info,
            unsafe: {
                ...options.info.unsafe,
                now: OriginalDate.now,
                random: (0, random_helpers_1.createUnsafeRandomSource)(OriginalMathRandom),
            },
        }),
    });
    // There's one activator per workflow instance, set it globally on the context.
    // We do this before importing any user code so user code can statically reference @temporalio/workflow functions
    // as well as Date and Math.random.
    (0, global_attributes_1.setActivator)(activator);
    activator.rethrowSynchronously = true;
    try {
        // webpack alias to payloadConverterPath
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const customPayloadConverter = (__webpack_require__(/*! __temporal_custom_payload_converter */ "?2065").payloadConverter);
        // The `payloadConverter` export is validated in the Worker
        if (customPayloadConverter != null) {
            activator.payloadConverter = customPayloadConverter;
        }
        // webpack alias to failureConverterPath
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const customFailureConverter = (__webpack_require__(/*! __temporal_custom_failure_converter */ "?31ff").failureConverter);
        // The `failureConverter` export is validated in the Worker
        if (customFailureConverter != null) {
            activator.failureConverter = customFailureConverter;
        }
        const { importWorkflows, importInterceptors } = globalThis.__TEMPORAL__;
        if (importWorkflows === undefined || importInterceptors === undefined) {
            throw new common_1.IllegalStateError('Workflow bundle did not register import hooks');
        }
        const interceptors = importInterceptors();
        for (const mod of interceptors) {
            const factory = mod.interceptors;
            if (factory !== undefined) {
                if (typeof factory !== 'function') {
                    throw new TypeError(`Failed to initialize workflows interceptors: expected a function, but got: '${factory}'`);
                }
                const interceptors = factory();
                activator.interceptors.inbound.push(...(interceptors.inbound ?? []));
                activator.interceptors.outbound.push(...(interceptors.outbound ?? []));
                activator.interceptors.internals.push(...(interceptors.internals ?? []));
            }
        }
        const mod = importWorkflows();
        const workflowFn = mod[activator.info.workflowType];
        const defaultWorkflowFn = mod['default'];
        if (typeof workflowFn === 'function') {
            activator.workflow = workflowFn;
        }
        else if (typeof defaultWorkflowFn === 'function') {
            activator.workflow = defaultWorkflowFn;
        }
        else {
            const details = workflowFn === undefined
                ? 'no such function is exported by the workflow bundle'
                : `expected a function, but got: '${typeof workflowFn}'`;
            throw new TypeError(`Failed to initialize workflow of type '${activator.info.workflowType}': ${details}`);
        }
        if ((0, common_1.isWorkflowFunctionWithOptions)(activator.workflow)) {
            if (typeof activator.workflow.workflowDefinitionOptions === 'object') {
                activator.versioningBehavior = activator.workflow.workflowDefinitionOptions.versioningBehavior;
                activator.workflowDefinitionFailureExceptionTypes =
                    activator.workflow.workflowDefinitionOptions.failureExceptionTypes;
            }
            else {
                activator.workflowDefinitionOptionsGetter = activator.workflow.workflowDefinitionOptions;
            }
        }
        if ((0, common_1.isWorkflowFunctionWithStaticOptions)(activator.workflow)) {
            activator.typeInfo = activator.workflow.staticOptions.typeInfo;
        }
    }
    catch (e) {
        try {
            // Core won't send an eviction job after an early error, so we are responsible for triggering
            // disposal of the workflow execution context. Otherwise, there might be resource leaks.
            dispose();
        }
        catch (_innerError) {
            // Ignore error disposing of activator, it is more important to rethrow the original error
        }
        throw e;
    }
    finally {
        activator.rethrowSynchronously = false;
    }
}
/**
 * Objects transfered to the VM from outside have prototypes belonging to the
 * outer context, which means that instanceof won't work inside the VM. This
 * function recursively walks over the content of an object, and recreate some
 * of these objects (notably Array, Date and Objects).
 */
function fixPrototypes(obj) {
    if (obj != null && typeof obj === 'object') {
        switch (Object.getPrototypeOf(obj)?.constructor?.name) {
            case 'Array':
                return Array.from(obj.map(fixPrototypes));
            case 'Date':
                return new Date(obj);
            default:
                return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fixPrototypes(v)]));
        }
    }
    else
        return obj;
}
/**
 * Initialize the workflow. Or to be exact, _complete_ initialization, as most part has been done in constructor).
 */
function initialize(initializeWorkflowJob) {
    const activator = (0, global_attributes_1.getActivator)();
    activator.rethrowSynchronously = true;
    try {
        activator.initializeWorkflow(initializeWorkflowJob);
    }
    finally {
        activator.rethrowSynchronously = false;
    }
}
/**
 * Run a chunk of activation jobs.
 *
 * Notice that this function is not async and runs _inside_ the VM context. Therefore, no microtask
 * will get executed _while_ this function is active; they will however get executed _after_ this
 * function returns (i.e. all outstanding microtasks in the VM will get executed before execution
 * resumes out of the VM, in `vm-shared.ts:activate()`).
 */
function activate(activation, batchIndex = 0) {
    const activator = (0, global_attributes_1.getActivator)();
    activator.rethrowSynchronously = true;
    try {
        const intercept = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.internals, 'activate', ({ activation }) => {
            // Cast from the interface to the class which has the `variant` attribute.
            // This is safe because we know that activation is a proto class.
            const jobs = activation.jobs;
            // Initialization will have been handled already, but we might still need to start the workflow function
            const startWorkflowJob = jobs[0]?.variant === 'initializeWorkflow' ? jobs.shift()?.initializeWorkflow : undefined;
            for (const job of jobs) {
                if (job.variant === undefined)
                    throw new TypeError('Expected job.variant to be defined');
                const variant = job[job.variant];
                if (!variant)
                    throw new TypeError(`Expected job.${job.variant} to be set`);
                activator[job.variant](variant /* TS can't infer this type */);
                if (job.variant !== 'queryWorkflow')
                    tryUnblockConditions();
            }
            if (startWorkflowJob) {
                const safeJobTypes = [
                    'initializeWorkflow',
                    'signalWorkflow',
                    'doUpdate',
                    'cancelWorkflow',
                    'updateRandomSeed',
                ];
                if (jobs.some((job) => !safeJobTypes.includes(job.variant))) {
                    throw new TypeError('Received both initializeWorkflow and non-signal/non-update jobs in the same activation: ' +
                        JSON.stringify(jobs.map((job) => job.variant)));
                }
                activator.startWorkflow(startWorkflowJob);
                tryUnblockConditions();
            }
        });
        intercept({ activation, batchIndex });
    }
    finally {
        activator.rethrowSynchronously = false;
    }
}
/**
 * Conclude a single activation.
 * Should be called after processing all activation jobs and queued microtasks.
 *
 * Activation failures are handled in the main Node.js isolate.
 */
function concludeActivation() {
    const activator = (0, global_attributes_1.getActivator)();
    activator.rethrowSynchronously = true;
    try {
        activator.rejectBufferedUpdates();
        const intercept = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.internals, 'concludeActivation', (input) => input);
        const activationCompletion = activator.concludeActivation();
        const { commands } = intercept({ commands: activationCompletion.commands });
        if (activator.completed) {
            activator.warnIfUnfinishedHandlers();
        }
        return {
            runId: activator.info.runId,
            successful: {
                ...activationCompletion,
                commands,
                versioningBehavior: (0, common_1.encodeVersioningBehavior)(activationCompletion.versioningBehavior),
            },
        };
    }
    finally {
        activator.rethrowSynchronously = false;
    }
}
/**
 * Loop through all blocked conditions, evaluate and unblock if possible.
 *
 * @returns number of unblocked conditions.
 */
function tryUnblockConditions() {
    const activator = (0, global_attributes_1.getActivator)();
    activator.rethrowSynchronously = true;
    try {
        let numUnblocked = 0;
        for (;;) {
            activator.maybeRethrowWorkflowTaskError();
            const prevUnblocked = numUnblocked;
            for (const [seq, cond] of activator.blockedConditions.entries()) {
                if (cond.fn()) {
                    cond.resolve();
                    numUnblocked++;
                    // It is safe to delete elements during map iteration
                    activator.blockedConditions.delete(seq);
                }
            }
            if (prevUnblocked === numUnblocked) {
                break;
            }
        }
        return numUnblocked;
    }
    finally {
        activator.rethrowSynchronously = false;
    }
}
// Handle disposal of the workflow execution context (not to be confused with destroying
// the sandbox vm, which may possibly be reused if `reuseV8Context` is true).
function dispose() {
    let error = undefined;
    const activator = (0, global_attributes_1.getActivator)();
    activator.rethrowSynchronously = true;
    try {
        try {
            const dispose = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.internals, 'dispose', async () => { });
            dispose({});
        }
        catch (e) {
            error = e;
        }
        // Destructors are run outside of interceptors, because interceptors themselves often rely
        // on objects that will be destroyed (notably AsyncLocalStorage instances), and because we
        // want to make sure that resources get cleaned up even if an interceptor throws an error.
        // Only the first error (if any) is rethrown.
        for (const destructor of activator.workflowSandboxDestructors.splice(0)) {
            try {
                destructor();
            }
            catch (e) {
                if (error == null) {
                    error = e;
                }
            }
        }
        if (error != null)
            throw error;
    }
    finally {
        activator.rethrowSynchronously = false;
        // The activator is no longer valid past this point.
        (0, global_attributes_1.setActivator)(undefined);
    }
}
// Destroy the sandbox VM (not to be confused with disposing of the workflow execution context).
function destroy() {
    const activator = (0, global_attributes_1.maybeGetActivator)();
    if (activator)
        throw new common_1.IllegalStateError('Workflow execution context should have been disposed first');
    let error = undefined;
    for (const destructor of globalThis.__temporal_globalSandboxDestructors?.splice(0) ?? []) {
        try {
            destructor();
        }
        catch (e) {
            if (error == null) {
                error = e;
            }
        }
    }
}


/***/ },

/***/ "./node_modules/@temporalio/workflow/lib/workflow.js"
/*!***********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/lib/workflow.js ***!
  \***********************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.workflowMetadataQuery = exports.enhancedStackTraceQuery = exports.stackTraceQuery = exports.NotAnActivityMethod = void 0;
exports.addDefaultWorkflowOptions = addDefaultWorkflowOptions;
exports.sleep = sleep;
exports.scheduleActivity = scheduleActivity;
exports.scheduleLocalActivity = scheduleLocalActivity;
exports.proxyActivities = proxyActivities;
exports.proxyLocalActivities = proxyLocalActivities;
exports.getExternalWorkflowHandle = getExternalWorkflowHandle;
exports.startChild = startChild;
exports.executeChild = executeChild;
exports.workflowInfo = workflowInfo;
exports.currentUpdateInfo = currentUpdateInfo;
exports.inWorkflowContext = inWorkflowContext;
exports.makeContinueAsNewFunc = makeContinueAsNewFunc;
exports.continueAsNew = continueAsNew;
exports.uuid4 = uuid4;
exports.patched = patched;
exports.deprecatePatch = deprecatePatch;
exports.condition = condition;
exports.defineUpdate = defineUpdate;
exports.defineSignal = defineSignal;
exports.defineQuery = defineQuery;
exports.setHandler = setHandler;
exports.setDefaultSignalHandler = setDefaultSignalHandler;
exports.setDefaultUpdateHandler = setDefaultUpdateHandler;
exports.setDefaultQueryHandler = setDefaultQueryHandler;
exports.upsertSearchAttributes = upsertSearchAttributes;
exports.upsertMemo = upsertMemo;
exports.allHandlersFinished = allHandlersFinished;
exports.setWorkflowOptions = setWorkflowOptions;
exports.defineWorkflowOptions = defineWorkflowOptions;
exports.getCurrentDetails = getCurrentDetails;
exports.setCurrentDetails = setCurrentDetails;
const common_1 = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
const user_metadata_1 = __webpack_require__(/*! @temporalio/common/lib/user-metadata */ "./node_modules/@temporalio/common/lib/user-metadata.js");
const payload_search_attributes_1 = __webpack_require__(/*! @temporalio/common/lib/converter/payload-search-attributes */ "./node_modules/@temporalio/common/lib/converter/payload-search-attributes.js");
const versioning_intent_enum_1 = __webpack_require__(/*! @temporalio/common/lib/versioning-intent-enum */ "./node_modules/@temporalio/common/lib/versioning-intent-enum.js");
const time_1 = __webpack_require__(/*! @temporalio/common/lib/time */ "./node_modules/@temporalio/common/lib/time.js");
const internal_workflow_1 = __webpack_require__(/*! @temporalio/common/lib/internal-workflow */ "./node_modules/@temporalio/common/lib/internal-workflow/index.js");
const reserved_1 = __webpack_require__(/*! @temporalio/common/lib/reserved */ "./node_modules/@temporalio/common/lib/reserved.js");
const event_groups_1 = __webpack_require__(/*! ./event-groups */ "./node_modules/@temporalio/workflow/lib/event-groups.js");
const cancellation_scope_1 = __webpack_require__(/*! ./cancellation-scope */ "./node_modules/@temporalio/workflow/lib/cancellation-scope.js");
const interceptor_composition_1 = __webpack_require__(/*! ./interceptor-composition */ "./node_modules/@temporalio/workflow/lib/interceptor-composition.js");
const update_scope_1 = __webpack_require__(/*! ./update-scope */ "./node_modules/@temporalio/workflow/lib/update-scope.js");
const activities_1 = __webpack_require__(/*! ./activities */ "./node_modules/@temporalio/workflow/lib/activities.js");
const interfaces_1 = __webpack_require__(/*! ./interfaces */ "./node_modules/@temporalio/workflow/lib/interfaces.js");
const errors_1 = __webpack_require__(/*! ./errors */ "./node_modules/@temporalio/workflow/lib/errors.js");
const global_attributes_1 = __webpack_require__(/*! ./global-attributes */ "./node_modules/@temporalio/workflow/lib/global-attributes.js");
const random_helpers_1 = __webpack_require__(/*! ./random-helpers */ "./node_modules/@temporalio/workflow/lib/random-helpers.js");
const stack_helpers_1 = __webpack_require__(/*! ./stack-helpers */ "./node_modules/@temporalio/workflow/lib/stack-helpers.js");
// Avoid a circular dependency
(0, cancellation_scope_1.registerSleepImplementation)(sleep);
function currentWorkflowSerializationContext(info) {
    return {
        type: 'workflow',
        namespace: info.namespace,
        workflowId: info.workflowId,
    };
}
function targetWorkflowSerializationContext(info, workflowId) {
    return {
        type: 'workflow',
        namespace: info.namespace,
        workflowId,
    };
}
function activitySerializationContext(info, activityId, isLocal) {
    return {
        type: 'activity',
        namespace: info.namespace,
        activityId,
        workflowId: info.workflowId,
        isLocal,
    };
}
/**
 * Adds default values of `workflowId` and `cancellationType` to given workflow options.
 */
function addDefaultWorkflowOptions(opts) {
    const { args, workflowId, ...rest } = opts;
    return {
        workflowId: workflowId ?? uuid4(),
        args: (args ?? []),
        cancellationType: interfaces_1.ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
        ...rest,
    };
}
/**
 * Push a startTimer command into state accumulator and register completion
 */
function timerNextHandler({ seq, durationMs, options }) {
    const activator = (0, global_attributes_1.getActivator)();
    const context = currentWorkflowSerializationContext(activator.info);
    return new Promise((resolve, reject) => {
        const scope = cancellation_scope_1.CancellationScope.current();
        if (scope.consideredCancelled) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            return;
        }
        if (scope.cancellable) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch((err) => {
                if (!activator.completions.timer.delete(seq)) {
                    return; // Already resolved or never scheduled
                }
                activator.pushCommand({
                    cancelTimer: {
                        seq,
                    },
                    eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options?.eventGroups),
                });
                reject(err);
            }));
        }
        activator.pushCommand({
            startTimer: {
                seq,
                startToFireTimeout: (0, time_1.msToTs)(durationMs),
            },
            userMetadata: (0, user_metadata_1.userMetadataToPayload)(activator.payloadConverter, options?.summary, undefined, context),
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options?.eventGroups),
        });
        activator.completions.timer.set(seq, {
            resolve,
            reject,
        });
    });
}
/**
 * Asynchronous sleep.
 *
 * Schedules a timer on the Temporal service.
 *
 * @param ms sleep duration - number of milliseconds or {@link https://www.npmjs.com/package/ms | ms-formatted string}.
 * If given a negative number or 0, value will be set to 1.
 * @param options optional timer options for additional configuration
 */
function sleep(ms, options) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.sleep(...) may only be used from a Workflow Execution');
    const seq = activator.nextSeqs.timer++;
    const durationMs = Math.max(1, (0, time_1.msToNumber)(ms));
    const execute = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'startTimer', timerNextHandler);
    return execute({
        durationMs,
        seq,
        options,
    });
}
function validateActivityOptions(options) {
    if (options.scheduleToCloseTimeout === undefined && options.startToCloseTimeout === undefined) {
        throw new TypeError('Required either scheduleToCloseTimeout or startToCloseTimeout');
    }
}
// Use same validation we use for normal activities
const validateLocalActivityOptions = validateActivityOptions;
/**
 * Push a scheduleActivity command into activator accumulator and register completion
 */
function scheduleActivityNextHandler({ options, args, headers, seq, activityType, typeInfo, }) {
    const activator = (0, global_attributes_1.getActivator)();
    validateActivityOptions(options);
    const activityId = options.activityId ?? `${seq}`;
    const context = activitySerializationContext(activator.info, activityId, false);
    return new Promise((resolve, reject) => {
        const scope = cancellation_scope_1.CancellationScope.current();
        if (scope.consideredCancelled) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            return;
        }
        if (scope.cancellable) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(() => {
                if (!activator.completions.activity.has(seq)) {
                    return; // Already resolved or never scheduled
                }
                activator.pushCommand({
                    requestCancelActivity: {
                        seq,
                    },
                    eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options.eventGroups),
                });
            }));
        }
        activator.pushCommand({
            scheduleActivity: {
                seq,
                activityId,
                activityType,
                arguments: (0, common_1.toPayloadsWithContext)(activator.payloadConverter, context, args, typeInfo?.inputTypes),
                retryPolicy: options.retry ? (0, common_1.compileRetryPolicy)(options.retry) : undefined,
                taskQueue: options.taskQueue || activator.info.taskQueue,
                heartbeatTimeout: (0, time_1.msOptionalToTs)(options.heartbeatTimeout),
                scheduleToCloseTimeout: (0, time_1.msOptionalToTs)(options.scheduleToCloseTimeout),
                startToCloseTimeout: (0, time_1.msOptionalToTs)(options.startToCloseTimeout),
                scheduleToStartTimeout: (0, time_1.msOptionalToTs)(options.scheduleToStartTimeout),
                headers,
                cancellationType: (0, activities_1.encodeActivityCancellationType)(options.cancellationType),
                doNotEagerlyExecute: !(options.allowEagerDispatch ?? true),
                versioningIntent: (0, versioning_intent_enum_1.versioningIntentToProto)(options.versioningIntent),
                priority: options.priority ? (0, common_1.compilePriority)(options.priority) : undefined,
            },
            userMetadata: (0, user_metadata_1.userMetadataToPayload)(activator.payloadConverter, options.summary, undefined, context),
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options.eventGroups),
        });
        activator.completions.activity.set(seq, {
            resolve,
            reject,
            context,
            outputTypeInfo: typeInfo?.outputType,
        });
    });
}
/**
 * Push a scheduleActivity command into state accumulator and register completion
 */
async function scheduleLocalActivityNextHandler({ options, args, headers, seq, activityType, attempt, originalScheduleTime, typeInfo, }) {
    const activator = (0, global_attributes_1.getActivator)();
    const activityId = `${seq}`;
    const context = activitySerializationContext(activator.info, activityId, true);
    // Eagerly fail the local activity if the worker will not be able to execute it,
    // e.g. the given activity type is not registered on the local activity worker
    // and there is no fallback 'default' activity. This obviously doesn't apply
    // when replaying the workflow history, as the worker won't actually have to run
    // the activity.
    if (!activator.info.unsafe.isReplaying &&
        !activator.registeredActivityNames.has(activityType) &&
        !activator.registeredActivityNames.has('default')) {
        throw new ReferenceError(`Local activity of type '${activityType}' not registered on worker`);
    }
    validateLocalActivityOptions(options);
    return new Promise((resolve, reject) => {
        const scope = cancellation_scope_1.CancellationScope.current();
        if (scope.consideredCancelled) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            return;
        }
        if (scope.cancellable) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(() => {
                if (!activator.completions.activity.has(seq)) {
                    return; // Already resolved or never scheduled
                }
                activator.pushCommand({
                    requestCancelLocalActivity: {
                        seq,
                    },
                });
            }));
        }
        activator.pushCommand({
            scheduleLocalActivity: {
                seq,
                attempt,
                originalScheduleTime,
                activityId,
                activityType,
                arguments: (0, common_1.toPayloadsWithContext)(activator.payloadConverter, context, args, typeInfo?.inputTypes),
                retryPolicy: options.retry ? (0, common_1.compileRetryPolicy)(options.retry) : undefined,
                scheduleToCloseTimeout: (0, time_1.msOptionalToTs)(options.scheduleToCloseTimeout),
                startToCloseTimeout: (0, time_1.msOptionalToTs)(options.startToCloseTimeout),
                scheduleToStartTimeout: (0, time_1.msOptionalToTs)(options.scheduleToStartTimeout),
                localRetryThreshold: (0, time_1.msOptionalToTs)(options.localRetryThreshold),
                headers,
                cancellationType: (0, activities_1.encodeActivityCancellationType)(options.cancellationType),
            },
            userMetadata: (0, user_metadata_1.userMetadataToPayload)(activator.payloadConverter, options.summary, undefined, context),
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options.eventGroups),
        });
        activator.completions.activity.set(seq, {
            resolve,
            reject,
            context,
            outputTypeInfo: typeInfo?.outputType,
        });
    });
}
/**
 * Schedule an activity and run outbound interceptors
 * @hidden
 */
function scheduleActivity(activityType, args, options, typeInfo) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.scheduleActivity(...) may only be used from a Workflow Execution');
    if (options === undefined) {
        throw new TypeError('Got empty activity options');
    }
    const seq = activator.nextSeqs.activity++;
    const execute = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'scheduleActivity', scheduleActivityNextHandler);
    return execute({
        activityType,
        headers: {},
        options,
        args,
        seq,
        typeInfo,
    });
}
/**
 * Schedule an activity and run outbound interceptors
 * @hidden
 */
async function scheduleLocalActivity(activityType, args, options, typeInfo) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.scheduleLocalActivity(...) may only be used from a Workflow Execution');
    if (options === undefined) {
        throw new TypeError('Got empty activity options');
    }
    let attempt = 1;
    let originalScheduleTime = undefined;
    for (;;) {
        const seq = activator.nextSeqs.activity++;
        const execute = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'scheduleLocalActivity', scheduleLocalActivityNextHandler);
        try {
            return (await execute({
                activityType,
                headers: {},
                options,
                args,
                seq,
                attempt,
                originalScheduleTime,
                typeInfo,
            }));
        }
        catch (err) {
            if (err instanceof errors_1.LocalActivityDoBackoff) {
                await sleep((0, time_1.requiredTsToMs)(err.backoff.backoffDuration, 'backoffDuration'), {
                    eventGroups: options.eventGroups,
                });
                if (typeof err.backoff.attempt !== 'number') {
                    throw new TypeError('Invalid backoff attempt type');
                }
                attempt = err.backoff.attempt;
                originalScheduleTime = err.backoff.originalScheduleTime ?? undefined;
            }
            else {
                throw err;
            }
        }
    }
}
function startChildWorkflowExecutionNextHandler({ options, headers, workflowType, seq, }) {
    const activator = (0, global_attributes_1.getActivator)();
    const workflowId = options.workflowId ?? uuid4();
    const context = targetWorkflowSerializationContext(activator.info, workflowId);
    const startPromise = new Promise((resolve, reject) => {
        const scope = cancellation_scope_1.CancellationScope.current();
        if (scope.consideredCancelled) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            return;
        }
        if (scope.cancellable) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(() => {
                const complete = !activator.completions.childWorkflowComplete.has(seq);
                if (!complete) {
                    activator.pushCommand({
                        cancelChildWorkflowExecution: { childWorkflowSeq: seq },
                        eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options.eventGroups),
                    });
                }
                // Nothing to cancel otherwise
            }));
        }
        activator.pushCommand({
            startChildWorkflowExecution: {
                seq,
                workflowId,
                workflowType,
                input: (0, common_1.toPayloadsWithContext)(activator.payloadConverter, context, options.args, options.typeInfo?.inputTypes),
                retryPolicy: options.retry ? (0, common_1.compileRetryPolicy)(options.retry) : undefined,
                taskQueue: options.taskQueue || activator.info.taskQueue,
                workflowExecutionTimeout: (0, time_1.msOptionalToTs)(options.workflowExecutionTimeout),
                workflowRunTimeout: (0, time_1.msOptionalToTs)(options.workflowRunTimeout),
                workflowTaskTimeout: (0, time_1.msOptionalToTs)(options.workflowTaskTimeout),
                namespace: activator.info.namespace, // Not configurable
                headers,
                cancellationType: (0, interfaces_1.encodeChildWorkflowCancellationType)(options.cancellationType),
                workflowIdReusePolicy: (0, common_1.encodeWorkflowIdReusePolicy)(options.workflowIdReusePolicy),
                parentClosePolicy: (0, interfaces_1.encodeParentClosePolicy)(options.parentClosePolicy),
                cronSchedule: options.cronSchedule,
                searchAttributes: options.searchAttributes || options.typedSearchAttributes
                    ? { indexedFields: (0, payload_search_attributes_1.encodeUnifiedSearchAttributes)(options.searchAttributes, options.typedSearchAttributes) }
                    : undefined,
                memo: options.memo && (0, common_1.mapToPayloads)(activator.payloadConverter, options.memo, context),
                versioningIntent: (0, versioning_intent_enum_1.versioningIntentToProto)(options.versioningIntent),
                priority: options.priority ? (0, common_1.compilePriority)(options.priority) : undefined,
            },
            userMetadata: (0, user_metadata_1.userMetadataToPayload)(activator.payloadConverter, options?.staticSummary, options?.staticDetails, context),
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(options.eventGroups),
        });
        activator.completions.childWorkflowStart.set(seq, {
            resolve,
            reject,
            context,
        });
    });
    // We construct a Promise for the completion of the child Workflow before we know
    // if the Workflow code will await it to capture the result in case it does.
    const completePromise = new Promise((resolve, reject) => {
        // Chain start Promise rejection to the complete Promise.
        (0, stack_helpers_1.untrackPromise)(startPromise.catch(reject));
        activator.completions.childWorkflowComplete.set(seq, {
            resolve,
            reject,
            context,
            outputTypeInfo: options.typeInfo?.outputType,
        });
    });
    (0, stack_helpers_1.untrackPromise)(startPromise);
    (0, stack_helpers_1.untrackPromise)(completePromise);
    // Prevent unhandled rejection because the completion might not be awaited
    (0, stack_helpers_1.untrackPromise)(completePromise.catch(() => undefined));
    const ret = new Promise((resolve) => resolve([startPromise, completePromise]));
    (0, stack_helpers_1.untrackPromise)(ret);
    return ret;
}
function signalWorkflowNextHandler({ seq, signalName, args, typeInfo, target, headers }) {
    const activator = (0, global_attributes_1.getActivator)();
    const targetWorkflowId = target.type === 'external' ? target.workflowExecution.workflowId : target.childWorkflowId;
    const context = targetWorkflowSerializationContext(activator.info, targetWorkflowId);
    return new Promise((resolve, reject) => {
        const scope = cancellation_scope_1.CancellationScope.current();
        if (scope.consideredCancelled) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            return;
        }
        if (scope.cancellable) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(() => {
                if (!activator.completions.signalWorkflow.has(seq)) {
                    return;
                }
                activator.pushCommand({ cancelSignalWorkflow: { seq } });
            }));
        }
        activator.pushCommand({
            signalExternalWorkflowExecution: {
                seq,
                args: (0, common_1.toPayloadsWithContext)(activator.payloadConverter, context, args, typeInfo?.inputTypes),
                headers,
                signalName,
                ...(target.type === 'external'
                    ? {
                        workflowExecution: {
                            namespace: activator.info.namespace,
                            ...target.workflowExecution,
                        },
                    }
                    : {
                        childWorkflowId: target.childWorkflowId,
                    }),
            },
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(undefined),
        });
        activator.completions.signalWorkflow.set(seq, { resolve, reject, context });
    });
}
/**
 * Symbol used in the return type of proxy methods to mark that an attribute on the source type is not a method.
 *
 * @see {@link ActivityInterfaceFor}
 * @see {@link proxyActivities}
 * @see {@link proxyLocalActivities}
 */
exports.NotAnActivityMethod = Symbol.for('__TEMPORAL_NOT_AN_ACTIVITY_METHOD');
/**
 * Configure Activity functions with given {@link ActivityOptions}.
 *
 * This method may be called multiple times to setup Activities with different options.
 *
 * @return a {@link https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Proxy | Proxy} for
 *         which each attribute is a callable Activity function
 *
 * @example
 * ```ts
 * import { proxyActivities } from '@temporalio/workflow';
 * import * as activities from '../activities';
 *
 * // Setup Activities from module exports
 * const { httpGet, otherActivity } = proxyActivities<typeof activities>({
 *   startToCloseTimeout: '30 minutes',
 * });
 *
 * // Use activities with default options
 * const result1 = await httpGet('http://example.com');
 *
 * // Override options for specific activity calls
 * const result2 = await httpGet.executeWithOptions({
 *   staticSummary: 'Fetches data from external API',
 *   scheduleToCloseTimeout: '5m'
 * }, ['http://api.example.com']);
 *
 * const result3 = await otherActivity.executeWithOptions({
 *   staticSummary: 'Processes the fetched data',
 *   taskQueue: 'special-task-queue'
 * }, [data]);
 *
 * // Setup Activities from an explicit interface (e.g. when defined by another SDK)
 * interface JavaActivities {
 *   httpGetFromJava(url: string): Promise<string>
 *   someOtherJavaActivity(arg1: number, arg2: string): Promise<string>;
 * }
 *
 * const {
 *   httpGetFromJava,
 *   someOtherJavaActivity
 * } = proxyActivities<JavaActivities>({
 *   taskQueue: 'java-worker-taskQueue',
 *   startToCloseTimeout: '5m',
 * });
 *
 * export function execute(): Promise<void> {
 *   const response = await httpGet("http://example.com");
 *   // Or with custom options:
 *   const response2 = await httpGetFromJava.executeWithOptions({
 *     staticSummary: 'Java HTTP call with timeout override',
 *     startToCloseTimeout: '2m'
 *   }, ["http://fast-api.example.com"]);
 *   // ...
 * }
 * ```
 */
function proxyActivities(options) {
    if (options === undefined) {
        throw new TypeError('options must be defined');
    }
    // Validate as early as possible for immediate user feedback
    validateActivityOptions(options);
    return new Proxy({}, {
        get(_, activityType) {
            if (typeof activityType !== 'string') {
                throw new TypeError(`Only strings are supported for Activity types, got: ${String(activityType)}`);
            }
            const activityName = activityType;
            function activityProxyFunction(...args) {
                const { activityTypeInfo, ...activityOptions } = options;
                return scheduleActivity(activityName, args, activityOptions, activityTypeInfo?.[activityName]);
            }
            activityProxyFunction.executeWithOptions = function (overrideOptions, args) {
                const { activityTypeInfo, ...activityOptions } = options;
                return scheduleActivity(activityName, args, (0, internal_workflow_1.deepMerge)(activityOptions, overrideOptions), activityTypeInfo?.[activityName]);
            };
            return activityProxyFunction;
        },
    });
}
/**
 * Configure Local Activity functions with given {@link LocalActivityOptions}.
 *
 * This method may be called multiple times to setup Activities with different options.
 *
 * @return a {@link https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Proxy | Proxy}
 *         for which each attribute is a callable Activity function
 *
 * @see {@link proxyActivities} for examples
 */
function proxyLocalActivities(options) {
    if (options === undefined) {
        throw new TypeError('options must be defined');
    }
    // Validate as early as possible for immediate user feedback
    validateLocalActivityOptions(options);
    return new Proxy({}, {
        get(_, activityType) {
            if (typeof activityType !== 'string') {
                throw new TypeError(`Only strings are supported for Activity types, got: ${String(activityType)}`);
            }
            const activityName = activityType;
            function localActivityProxyFunction(...args) {
                const { activityTypeInfo, ...activityOptions } = options;
                return scheduleLocalActivity(activityName, args, activityOptions, activityTypeInfo?.[activityName]);
            }
            localActivityProxyFunction.executeWithOptions = function (overrideOptions, args) {
                const { activityTypeInfo, ...activityOptions } = options;
                return scheduleLocalActivity(activityName, args, (0, internal_workflow_1.deepMerge)(activityOptions, overrideOptions), activityTypeInfo?.[activityName]);
            };
            return localActivityProxyFunction;
        },
    });
}
// TODO: deprecate this patch after "enough" time has passed
const EXTERNAL_WF_CANCEL_PATCH = '__temporal_internal_connect_external_handle_cancel_to_scope';
// The name of this patch comes from an attempt to build a generic internal patching mechanism.
// That effort has been abandoned in favor of a newer WorkflowTaskCompletedMetadata based mechanism.
const CONDITION_0_PATCH = '__sdk_internal_patch_number:1';
/**
 * Returns a client-side handle that can be used to signal and cancel an existing Workflow execution.
 * It takes a Workflow ID and optional run ID.
 */
function getExternalWorkflowHandle(workflowId, runId) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.getExternalWorkflowHandle(...) may only be used from a Workflow Execution. Consider using Client.workflow.getHandle(...) instead.)');
    const signal = (signalName, args, typeInfo) => {
        return (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'signalWorkflow', signalWorkflowNextHandler)({
            seq: activator.nextSeqs.signalWorkflow++,
            signalName,
            args,
            typeInfo,
            target: {
                type: 'external',
                workflowExecution: { workflowId, runId },
            },
            headers: {},
        });
    };
    return {
        workflowId,
        runId,
        cancel() {
            return new Promise((resolve, reject) => {
                // Connect this cancel operation to the current cancellation scope.
                // This is behavior was introduced after v0.22.0 and is incompatible
                // with histories generated with previous SDK versions and thus requires
                // patching.
                //
                // We try to delay patching as much as possible to avoid polluting
                // histories unless strictly required.
                const scope = cancellation_scope_1.CancellationScope.current();
                if (scope.cancellable) {
                    (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch((err) => {
                        if (patched(EXTERNAL_WF_CANCEL_PATCH)) {
                            reject(err);
                        }
                    }));
                }
                if (scope.consideredCancelled) {
                    if (patched(EXTERNAL_WF_CANCEL_PATCH)) {
                        return;
                    }
                }
                const seq = activator.nextSeqs.cancelWorkflow++;
                activator.pushCommand({
                    requestCancelExternalWorkflowExecution: {
                        seq,
                        workflowExecution: {
                            namespace: activator.info.namespace,
                            workflowId,
                            runId,
                        },
                    },
                    eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(undefined),
                });
                activator.completions.cancelWorkflow.set(seq, {
                    resolve,
                    reject,
                    context: targetWorkflowSerializationContext(activator.info, workflowId),
                });
            });
        },
        signal(def, ...args) {
            if (typeof def === 'string') {
                return signal(def, args);
            }
            else {
                return signal(def.name, args, def.typeInfo);
            }
        },
        signalWithOptions(signalName, options) {
            return signal(signalName, options.args ?? [], options.typeInfo);
        },
    };
}
async function startChild(workflowTypeOrFunc, options) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.startChild(...) may only be used from a Workflow Execution. Consider using Client.workflow.start(...) instead.)');
    const optionsWithDefaults = addDefaultWorkflowOptions(options ?? {});
    const { type: workflowType, typeInfo } = (0, common_1.extractWorkflowTypeAndConfig)(workflowTypeOrFunc, optionsWithDefaults.typeInfo);
    const workflowOptions = {
        ...optionsWithDefaults,
        typeInfo,
    };
    const execute = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'startChildWorkflowExecution', startChildWorkflowExecutionNextHandler);
    const [started, completed] = await execute({
        seq: activator.nextSeqs.childWorkflow++,
        options: workflowOptions,
        headers: {},
        workflowType,
    });
    const firstExecutionRunId = await started;
    const signal = (signalName, args, typeInfo) => {
        return (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'signalWorkflow', signalWorkflowNextHandler)({
            seq: activator.nextSeqs.signalWorkflow++,
            signalName,
            args,
            typeInfo,
            target: {
                type: 'child',
                childWorkflowId: workflowOptions.workflowId,
            },
            headers: {},
        });
    };
    return {
        workflowId: workflowOptions.workflowId,
        firstExecutionRunId,
        async result() {
            return (await completed);
        },
        async signal(def, ...args) {
            if (typeof def === 'string') {
                return signal(def, args);
            }
            else {
                return signal(def.name, args, def.typeInfo);
            }
        },
        async signalWithOptions(signalName, options) {
            return signal(signalName, options.args ?? [], options.typeInfo);
        },
    };
}
async function executeChild(workflowTypeOrFunc, options) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.executeChild(...) may only be used from a Workflow Execution. Consider using Client.workflow.execute(...) instead.');
    const optionsWithDefaults = addDefaultWorkflowOptions(options ?? {});
    const { type: workflowType, typeInfo } = (0, common_1.extractWorkflowTypeAndConfig)(workflowTypeOrFunc, optionsWithDefaults.typeInfo);
    const workflowOptions = {
        ...optionsWithDefaults,
        typeInfo,
    };
    const execute = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'startChildWorkflowExecution', startChildWorkflowExecutionNextHandler);
    const execPromise = execute({
        seq: activator.nextSeqs.childWorkflow++,
        options: workflowOptions,
        headers: {},
        workflowType,
    });
    (0, stack_helpers_1.untrackPromise)(execPromise);
    const completedPromise = execPromise.then(([_started, completed]) => completed);
    (0, stack_helpers_1.untrackPromise)(completedPromise);
    return completedPromise;
}
/**
 * Get information about the current Workflow.
 *
 * WARNING: This function returns a frozen copy of WorkflowInfo, at the point where this method has been called.
 * Changes happening at later point in workflow execution will not be reflected in the returned object.
 *
 * For this reason, we recommend calling `workflowInfo()` on every access to {@link WorkflowInfo}'s fields,
 * rather than caching the `WorkflowInfo` object (or part of it) in a local variable. For example:
 *
 * ```ts
 * // GOOD
 * function myWorkflow() {
 *   doSomething(workflowInfo().searchAttributes)
 *   ...
 *   doSomethingElse(workflowInfo().searchAttributes)
 * }
 * ```
 *
 * vs
 *
 * ```ts
 * // BAD
 * function myWorkflow() {
 *   const attributes = workflowInfo().searchAttributes
 *   doSomething(attributes)
 *   ...
 *   doSomethingElse(attributes)
 * }
 * ```
 */
function workflowInfo() {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.workflowInfo(...) may only be used from a Workflow Execution.');
    return activator.info;
}
/**
 * Get information about the current update if any.
 *
 * @return Info for the current update handler the code calling this is executing
 * within if any.
 */
function currentUpdateInfo() {
    (0, global_attributes_1.assertInWorkflowContext)('Workflow.currentUpdateInfo(...) may only be used from a Workflow Execution.');
    return update_scope_1.UpdateScope.current();
}
/**
 * Returns whether or not code is executing in workflow context
 */
function inWorkflowContext() {
    return (0, global_attributes_1.maybeGetActivator)() !== undefined;
}
/**
 * Returns a function `f` that will cause the current Workflow to ContinueAsNew when called.
 *
 * `f` takes the same arguments as the Workflow function supplied to typeparam `F`.
 *
 * Once `f` is called, Workflow Execution immediately completes.
 */
function makeContinueAsNewFunc(options) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.continueAsNew(...) and Workflow.makeContinueAsNewFunc(...) may only be used from a Workflow Execution.');
    const info = activator.info;
    const { workflowType, taskQueue, ...rest } = options ?? {};
    const requiredOptions = {
        workflowType: workflowType ?? info.workflowType,
        taskQueue: taskQueue ?? info.taskQueue,
        ...rest,
    };
    return (...args) => {
        const context = currentWorkflowSerializationContext(info);
        const fn = (0, interceptor_composition_1.composeInterceptors)(activator.interceptors.outbound, 'continueAsNew', async (input) => {
            const { headers, args, options } = input;
            const typeInfo = options.typeInfo ?? (options.workflowType === info.workflowType ? activator.typeInfo : undefined);
            throw new interfaces_1.ContinueAsNew({
                workflowType: options.workflowType,
                arguments: (0, common_1.toPayloadsWithContext)(activator.payloadConverter, context, args, typeInfo?.inputTypes),
                headers,
                taskQueue: options.taskQueue,
                memo: options.memo && (0, common_1.mapToPayloads)(activator.payloadConverter, options.memo, context),
                searchAttributes: options.searchAttributes || options.typedSearchAttributes
                    ? {
                        indexedFields: (0, payload_search_attributes_1.encodeUnifiedSearchAttributes)(options.searchAttributes, options.typedSearchAttributes),
                    }
                    : undefined,
                workflowRunTimeout: (0, time_1.msOptionalToTs)(options.workflowRunTimeout),
                workflowTaskTimeout: (0, time_1.msOptionalToTs)(options.workflowTaskTimeout),
                backoffStartInterval: (0, time_1.msOptionalToTs)(options.backoffStartInterval),
                versioningIntent: (0, versioning_intent_enum_1.versioningIntentToProto)(options.versioningIntent),
                initialVersioningBehavior: (0, common_1.encodeInitialVersioningBehavior)(options.initialVersioningBehavior),
            }, (0, event_groups_1.eventGroupMarkersToProto)(options.eventGroups));
        });
        return fn({
            args,
            headers: {},
            options: requiredOptions,
        });
    };
}
/**
 * {@link https://docs.temporal.io/workflow-execution/continue-as-new#continue-as-new | Continues-As-New} the current Workflow Execution
 * with default options.
 *
 * Shorthand for `makeContinueAsNewFunc<F>()(...args)`. (See: {@link makeContinueAsNewFunc}.)
 *
 * @example
 *
 * ```ts
 * import { continueAsNew } from '@temporalio/workflow';
 * import { SearchAttributeType } from '@temporalio/common';
 *
 * export async function myWorkflow(n: number): Promise<void> {
 *   // ... Workflow logic
 *   await continueAsNew<typeof myWorkflow>(n + 1);
 * }
 * ```
 */
function continueAsNew(...args) {
    return makeContinueAsNewFunc()(...args);
}
/**
 * Generate an RFC compliant V4 uuid.
 * Uses the workflow's deterministic PRNG making it safe for use within a workflow.
 * This function is cryptographically insecure.
 * See the {@link https://stackoverflow.com/questions/105034/how-to-create-a-guid-uuid | stackoverflow discussion}.
 */
function uuid4() {
    const activator = (0, global_attributes_1.maybeGetActivator)();
    return (0, random_helpers_1.uuid4FromRandom)(activator ? () => activator.currentRandom() : Math.random);
}
/**
 * Patch or upgrade workflow code by checking or stating that this workflow has a certain patch.
 *
 * See {@link https://docs.temporal.io/typescript/versioning | docs page} for info.
 *
 * If the workflow is replaying an existing history, then this function returns true if that
 * history was produced by a worker which also had a `patched` call with the same `patchId`.
 * If the history was produced by a worker *without* such a call, then it will return false.
 *
 * If the workflow is not currently replaying, then this call *always* returns true.
 *
 * Your workflow code should run the "new" code if this returns true, if it returns false, you
 * should run the "old" code. By doing this, you can maintain determinism.
 *
 * @param patchId An identifier that should be unique to this patch. It is OK to use multiple
 * calls with the same ID, which means all such calls will always return the same value.
 */
function patched(patchId) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.patch(...) and Workflow.deprecatePatch may only be used from a Workflow Execution.');
    return activator.patchInternal(patchId, false);
}
/**
 * Indicate that a patch is being phased out.
 *
 * See {@link https://docs.temporal.io/typescript/versioning | docs page} for info.
 *
 * Workflows with this call may be deployed alongside workflows with a {@link patched} call, but
 * they must *not* be deployed while any workers still exist running old code without a
 * {@link patched} call, or any runs with histories produced by such workers exist. If either kind
 * of worker encounters a history produced by the other, their behavior is undefined.
 *
 * Once all live workflow runs have been produced by workers with this call, you can deploy workers
 * which are free of either kind of patch call for this ID. Workers with and without this call
 * may coexist, as long as they are both running the "new" code.
 *
 * @param patchId An identifier that should be unique to this patch. It is OK to use multiple
 * calls with the same ID, which means all such calls will always return the same value.
 */
function deprecatePatch(patchId) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.patch(...) and Workflow.deprecatePatch may only be used from a Workflow Execution.');
    activator.patchInternal(patchId, true);
}
async function condition(fn, timeout, opts) {
    (0, global_attributes_1.assertInWorkflowContext)('Workflow.condition(...) may only be used from a Workflow Execution.');
    // Prior to 1.5.0, `condition(fn, 0)` was treated as equivalent to `condition(fn, undefined)`
    if (timeout === 0 && !patched(CONDITION_0_PATCH)) {
        return conditionInner(fn);
    }
    if (typeof timeout === 'number' || typeof timeout === 'string') {
        return cancellation_scope_1.CancellationScope.cancellable(async () => {
            try {
                return await Promise.race([sleep(timeout, opts).then(() => false), conditionInner(fn).then(() => true)]);
            }
            finally {
                cancellation_scope_1.CancellationScope.current().cancel();
            }
        });
    }
    return conditionInner(fn);
}
function conditionInner(fn) {
    const activator = (0, global_attributes_1.getActivator)();
    return new Promise((resolve, reject) => {
        const scope = cancellation_scope_1.CancellationScope.current();
        if (scope.consideredCancelled) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch(reject));
            return;
        }
        const seq = activator.nextSeqs.condition++;
        if (scope.cancellable) {
            (0, stack_helpers_1.untrackPromise)(scope.cancelRequested.catch((err) => {
                activator.blockedConditions.delete(seq);
                reject(err);
            }));
        }
        // Eager evaluation
        if (fn()) {
            resolve();
            return;
        }
        activator.blockedConditions.set(seq, { fn, resolve });
    });
}
/**
 * Define an update method for a Workflow.
 *
 * A definition is used to register a handler in the Workflow via {@link setHandler} and to update a Workflow using a {@link WorkflowHandle}, {@link ChildWorkflowHandle} or {@link ExternalWorkflowHandle}.
 * A definition can be reused in multiple Workflows.
 */
function defineUpdate(name, options = {}) {
    return {
        type: 'update',
        name,
        ...options,
    };
}
/**
 * Define a signal method for a Workflow.
 *
 * A definition is used to register a handler in the Workflow via {@link setHandler} and to signal a Workflow using a {@link WorkflowHandle}, {@link ChildWorkflowHandle} or {@link ExternalWorkflowHandle}.
 * A definition can be reused in multiple Workflows.
 *
 * @param options optional type information used to convert Signal arguments
 */
function defineSignal(name, options = {}) {
    return {
        type: 'signal',
        name,
        ...options,
    };
}
/**
 * Define a query method for a Workflow.
 *
 * A definition is used to register a handler in the Workflow via {@link setHandler} and to query a Workflow using a {@link WorkflowHandle}.
 * A definition can be reused in multiple Workflows.
 */
function defineQuery(name, options = {}) {
    return {
        type: 'query',
        name,
        ...options,
    };
}
// For Updates and Signals we want to make a public guarantee something like the
// following:
//
//   "If a WFT contains a Signal/Update, and if a handler is available for that
//   Signal/Update, then the handler will be executed.""
//
// However, that statement is not well-defined, leaving several questions open:
//
// 1. What does it mean for a handler to be "available"? What happens if the
//    handler is not present initially but is set at some point during the
//    Workflow code that is executed in that WFT? What happens if the handler is
//    set and then deleted, or replaced with a different handler?
//
// 2. When is the handler executed? (When it first becomes available? At the end
//    of the activation?) What are the execution semantics of Workflow and
//    Signal/Update handler code given that they are concurrent? Can the user
//    rely on Signal/Update side effects being reflected in the Workflow return
//    value, or in the value passed to Continue-As-New? If the handler is an
//    async function / coroutine, how much of it is executed and when is the
//    rest executed?
//
// 3. What happens if the handler is not executed? (i.e. because it wasn't
//    available in the sense defined by (1))
//
// 4. In the case of Update, when is the validation function executed?
//
// The implementation for Typescript is as follows:
//
// 1. sdk-core sorts Signal and Update jobs (and Patches) ahead of all other
//    jobs. Thus if the handler is available at the start of the Activation then
//    the Signal/Update will be executed before Workflow code is executed. If it
//    is not, then the Signal/Update calls are pushed to a buffer.
//
// 2. On each call to setHandler for a given Signal/Update, we make a pass
//    through the buffer list. If a buffered job is associated with the just-set
//    handler, then the job is removed from the buffer and the initial
//    synchronous portion of the handler is invoked on that input (i.e.
//    preempting workflow code).
//
// Thus in the case of Typescript the questions above are answered as follows:
//
// 1. A handler is "available" if it is set at the start of the Activation or
//    becomes set at any point during the Activation. If the handler is not set
//    initially then it is executed as soon as it is set. Subsequent deletion or
//    replacement by a different handler has no impact because the jobs it was
//    handling have already been handled and are no longer in the buffer.
//
// 2. The handler is executed as soon as it becomes available. I.e. if the
//    handler is set at the start of the Activation then it is executed when
//    first attempting to process the Signal/Update job; alternatively, if it is
//    set by a setHandler call made by Workflow code, then it is executed as
//    part of that call (preempting Workflow code). Therefore, a user can rely
//    on Signal/Update side effects being reflected in e.g. the Workflow return
//    value, and in the value passed to Continue-As-New. Activation jobs are
//    processed in the order supplied by sdk-core, i.e. Signals, then Updates,
//    then other jobs. Within each group, the order sent by the server is
//    preserved. If the handler is async, it is executed up to its first yield
//    point.
//
// 3. Signal case: If a handler does not become available for a Signal job then
//    the job remains in the buffer. If a handler for the Signal becomes
//    available in a subsequent Activation (of the same or a subsequent WFT)
//    then the handler will be executed. If not, then the Signal will never be
//    responded to and this causes no error.
//
//    Update case: If a handler does not become available for an Update job then
//    the Update is rejected at the end of the Activation. Thus, if a user does
//    not want an Update to be rejected for this reason, then it is their
//    responsibility to ensure that their application and workflow code interact
//    such that a handler is available for the Update during any Activation
//    which might contain their Update job. (Note that the user often has
//    uncertainty about which WFT their Signal/Update will appear in. For
//    example, if they call startWorkflow() followed by startUpdate(), then they
//    will typically not know whether these will be delivered in one or two
//    WFTs. On the other hand there are situations where they would have reason
//    to believe they are in the same WFT, for example if they do not start
//    Worker polling until after they have verified that both requests have
//    succeeded.)
//
// 4. If an Update has a validation function then it is executed immediately
//    prior to the handler. (Note that the validation function is required to be
//    synchronous).
function setHandler(def, handler, options) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.setHandler(...) may only be used from a Workflow Execution.');
    // Cannot register handler for reserved names
    (0, reserved_1.throwIfReservedName)(def.type, def.name);
    const description = options?.description;
    if (def.type === 'update') {
        if (typeof handler === 'function') {
            const updateOptions = options;
            const validator = updateOptions?.validator;
            const unfinishedPolicy = updateOptions?.unfinishedPolicy ?? common_1.HandlerUnfinishedPolicy.WARN_AND_ABANDON;
            activator.updateHandlers.set(def.name, {
                handler,
                validator,
                description,
                unfinishedPolicy,
                typeInfo: def.typeInfo,
            });
            activator.dispatchBufferedUpdates();
        }
        else if (handler == null) {
            activator.updateHandlers.delete(def.name);
        }
        else {
            throw new TypeError(`Expected handler to be either a function or 'undefined'. Got: '${typeof handler}'`);
        }
    }
    else if (def.type === 'signal') {
        if (typeof handler === 'function') {
            const signalOptions = options;
            const unfinishedPolicy = signalOptions?.unfinishedPolicy ?? common_1.HandlerUnfinishedPolicy.WARN_AND_ABANDON;
            activator.signalHandlers.set(def.name, {
                handler: handler,
                description,
                unfinishedPolicy,
                typeInfo: def.typeInfo,
            });
            activator.dispatchBufferedSignals();
        }
        else if (handler == null) {
            activator.signalHandlers.delete(def.name);
        }
        else {
            throw new TypeError(`Expected handler to be either a function or 'undefined'. Got: '${typeof handler}'`);
        }
    }
    else if (def.type === 'query') {
        if (typeof handler === 'function') {
            activator.queryHandlers.set(def.name, { handler: handler, description, typeInfo: def.typeInfo });
        }
        else if (handler == null) {
            activator.queryHandlers.delete(def.name);
        }
        else {
            throw new TypeError(`Expected handler to be either a function or 'undefined'. Got: '${typeof handler}'`);
        }
    }
    else {
        throw new TypeError(`Invalid definition type: ${def.type}`);
    }
}
/**
 * Set a signal handler function that will handle signals calls for non-registered signal names.
 *
 * Signals are dispatched to the default signal handler in the order that they were accepted by the server.
 *
 * If this function is called multiple times for a given signal name the last handler will overwrite any previous calls.
 *
 * @param handler a function that will handle signals for non-registered signal names, or `undefined` to unset the handler.
 */
function setDefaultSignalHandler(handler) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.setDefaultSignalHandler(...) may only be used from a Workflow Execution.');
    if (typeof handler === 'function') {
        activator.defaultSignalHandler = handler;
        activator.dispatchBufferedSignals();
    }
    else if (handler == null) {
        activator.defaultSignalHandler = undefined;
    }
    else {
        throw new TypeError(`Expected handler to be either a function or 'undefined'. Got: '${typeof handler}'`);
    }
}
/**
 * Set a update handler function that will handle updates calls for non-registered update names.
 *
 * Updates are dispatched to the default update handler in the order that they were accepted by the server.
 *
 * If this function is called multiple times for a given update name the last handler will overwrite any previous calls.
 *
 * @param handler a function that will handle updates for non-registered update names, or `undefined` to unset the handler.
 */
function setDefaultUpdateHandler(handler) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.setDefaultUpdateHandler(...) may only be used from a Workflow Execution.');
    if (typeof handler === 'function') {
        activator.defaultUpdateHandler = handler;
        activator.dispatchBufferedUpdates();
    }
    else if (handler == null) {
        activator.defaultUpdateHandler = undefined;
    }
    else {
        throw new TypeError(`Expected handler to be either a function or 'undefined'. Got: '${typeof handler}'`);
    }
}
/**
 * Set a query handler function that will handle query calls for non-registered query names.
 *
 * Queries are dispatched to the default query handler in the order that they were accepted by the server.
 *
 * If this function is called multiple times for a given query name the last handler will overwrite any previous calls.
 *
 * @param handler a function that will handle queries for non-registered query names, or `undefined` to unset the handler.
 */
function setDefaultQueryHandler(handler) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.setDefaultQueryHandler(...) may only be used from a Workflow Execution.');
    if (typeof handler === 'function' || handler === undefined) {
        activator.defaultQueryHandler = handler;
    }
    else {
        throw new TypeError(`Expected handler to be either a function or 'undefined'. Got: '${typeof handler}'`);
    }
}
/**
 * Updates this Workflow's Search Attributes by merging the provided `searchAttributes` with the existing Search
 * Attributes, `workflowInfo().searchAttributes`.
 *
 * Search attributes can be upserted using either SearchAttributes (deprecated) or SearchAttributeUpdatePair[] (preferred)
 *
 * Upserting a workflow's search attributes using SearchAttributeUpdatePair[]:
 *
 * ```ts
 * const intKey = defineSearchKey('CustomIntField', 'INT');
 * const boolKey = defineSearchKey('CustomBoolField', 'BOOL');
 * const keywordListKey = defineSearchKey('CustomKeywordField', 'KEYWORD_LIST');
 *
 * upsertSearchAttributes([
 *  defineSearchAttribute(intKey, 1),
 *  defineSearchAttribute(boolKey, true)
 * ]);
 * upsertSearchAttributes([
 *  defineSearchAttribute(intKey, 42),
 *  defineSearchAttribute(keywordListKey, ['durable code', 'is great'])
 * ]);
 * ```
 *
 * Would result in the Workflow having these Search Attributes:
 *
 * ```ts
 * {
 *   CustomIntField: [42],
 *   CustomBoolField: [true],
 *   CustomKeywordField: ['durable code', 'is great']
 * }
 * ```
 *
 * @param searchAttributes The Record to merge.
 * If using SearchAttributeUpdatePair[] (preferred), set a value to null to remove the search attribute.
 * If using SearchAttributes (deprecated), set a value to undefined or an empty list to remove the search attribute.
 */
function upsertSearchAttributes(searchAttributes) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.upsertSearchAttributes(...) may only be used from a Workflow Execution.');
    if (searchAttributes == null) {
        throw new Error('searchAttributes must be a non-null SearchAttributes');
    }
    if (Array.isArray(searchAttributes)) {
        // Typed search attributes
        activator.pushCommand({
            upsertWorkflowSearchAttributes: {
                searchAttributes: {
                    indexedFields: (0, payload_search_attributes_1.encodeUnifiedSearchAttributes)(undefined, searchAttributes),
                },
            },
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(undefined),
        });
        activator.mutateWorkflowInfo((info) => {
            // Create a copy of the current state.
            const newSearchAttributes = { ...info.searchAttributes };
            for (const pair of searchAttributes) {
                if (pair.value == null) {
                    // If the value is null, remove the search attribute.
                    // We don't mutate the existing state (just the new map) so this is safe.
                    delete newSearchAttributes[pair.key.name];
                }
                else {
                    newSearchAttributes[pair.key.name] = Array.isArray(pair.value)
                        ? pair.value
                        : [pair.value];
                }
            }
            return {
                ...info,
                searchAttributes: newSearchAttributes,
                // Create an empty copy and apply existing and new updates. Keep in mind the order matters here (existing first, new second - to possibly overwrite existing).
                typedSearchAttributes: info.typedSearchAttributes.updateCopy([...searchAttributes]),
            };
        });
    }
    else {
        // Legacy search attributes
        activator.pushCommand({
            upsertWorkflowSearchAttributes: {
                searchAttributes: {
                    indexedFields: (0, common_1.mapToPayloads)(payload_search_attributes_1.searchAttributePayloadConverter, searchAttributes),
                },
            },
            eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(undefined),
        });
        activator.mutateWorkflowInfo((info) => {
            // Create a new copy of the current state.
            let typedSearchAttributes = info.typedSearchAttributes.updateCopy([]);
            const newSearchAttributes = { ...info.searchAttributes };
            // Upsert legacy search attributes into typedSearchAttributes.
            for (const [k, v] of Object.entries(searchAttributes)) {
                if (v !== undefined && !Array.isArray(v)) {
                    throw new Error(`Search attribute value must be an array or undefined, got ${v}`);
                }
                // The value is undefined or an empty list, this signifies deletion.
                // Remove from both untyped & typed search attributes.
                if (v == null || (Array.isArray(v) && v.length === 0)) {
                    // We cannot discern a valid key typing from these values.
                    // Instead, we do a "best effort" deletion from typed search attributes:
                    // - check if a matching key name exists, if so, remove it.
                    const matchingPair = typedSearchAttributes.getAll().find((pair) => pair.key.name === k);
                    if (matchingPair) {
                        typedSearchAttributes = typedSearchAttributes.updateCopy([
                            { key: matchingPair.key, value: null },
                        ]);
                    }
                    delete newSearchAttributes[k];
                    continue;
                }
                // Attempt to discern a valid key typing for the update.
                const typedKey = common_1.TypedSearchAttributes.getKeyFromUntyped(k, v);
                // Unable to discern a valid key typing (no valid type for defined value).
                // Skip applying this update (no-op).
                if (typedKey === undefined) {
                    continue;
                }
                // TEXT type is inferred from a string value, but it could also be KEYWORD.
                // If a matching pair exists with KEYWORD type, use that instead.
                if (typedKey.type === 'TEXT') {
                    const matchingPair = typedSearchAttributes.getAll().find((pair) => pair.key.name === typedKey.name);
                    if (matchingPair) {
                        typedKey.type = matchingPair.key.type;
                    }
                }
                let newValue = v;
                // Unpack value if it is a single-element array.
                if (v.length === 1) {
                    newValue = v[0];
                    // Convert value back to Date.
                    if (typedKey.type === 'DATETIME') {
                        newValue = new Date(newValue);
                    }
                }
                // We have a defined value with valid type. Apply the update.
                typedSearchAttributes = typedSearchAttributes.updateCopy([
                    { key: typedKey, value: newValue },
                ]);
                newSearchAttributes[k] = v;
            }
            return {
                ...info,
                searchAttributes: newSearchAttributes,
                typedSearchAttributes,
            };
        });
    }
}
/**
 * Updates this Workflow's Memos by merging the provided `memo` with existing
 * Memos (as returned by `workflowInfo().memo`).
 *
 * New memo is merged by replacing properties of the same name _at the first
 * level only_. Setting a property to value `undefined` or `null` clears that
 * key from the Memo.
 *
 * For example:
 *
 * ```ts
 * upsertMemo({
 *   key1: value,
 *   key3: { subkey1: value }
 *   key4: value,
 * });
 * upsertMemo({
 *   key2: value
 *   key3: { subkey2: value }
 *   key4: undefined,
 * });
 * ```
 *
 * would result in the Workflow having these Memo:
 *
 * ```ts
 * {
 *   key1: value,
 *   key2: value,
 *   key3: { subkey2: value }  // Note this object was completely replaced
 *   // Note that key4 was completely removed
 * }
 * ```
 *
 * @param memo The Record to merge.
 */
function upsertMemo(memo) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('Workflow.upsertMemo(...) may only be used from a Workflow Execution.');
    const context = currentWorkflowSerializationContext(activator.info);
    if (memo == null) {
        throw new Error('memo must be a non-null Record');
    }
    activator.pushCommand({
        modifyWorkflowProperties: {
            upsertedMemo: {
                fields: (0, common_1.mapToPayloads)(activator.payloadConverter, 
                // Convert null to undefined
                Object.fromEntries(Object.entries(memo).map(([k, v]) => [k, v ?? undefined])), context),
            },
        },
        eventGroupMarkers: (0, event_groups_1.eventGroupMarkersToProto)(undefined),
    });
    activator.mutateWorkflowInfo((info) => {
        return {
            ...info,
            memo: Object.fromEntries(Object.entries({
                ...info.memo,
                ...memo,
            }).filter(([_, v]) => v != null)),
        };
    });
}
/**
 * Whether update and signal handlers have finished executing.
 *
 * Consider waiting on this condition before workflow return or continue-as-new, to prevent
 * interruption of in-progress handlers by workflow exit:
 *
 * ```ts
 * await workflow.condition(workflow.allHandlersFinished)
 * ```
 *
 * @returns true if there are no in-progress update or signal handler executions.
 */
function allHandlersFinished() {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('allHandlersFinished() may only be used from a Workflow Execution.');
    return activator.inProgressSignals.size === 0 && activator.inProgressUpdates.size === 0;
}
/**
 * Can be used to alter workflow functions with certain options specified at definition time.
 *
 * Prefer {@link defineWorkflowOptions} for new code, especially when setting static workflow
 * metadata such as type information.
 *
 * @example
 * For example:
 * ```ts
 * setWorkflowOptions({
 *   versioningBehavior: 'PINNED',
 *   failureExceptionTypes: [CustomWorkflowError]
 * }, myWorkflow);
 * export async function myWorkflow(): Promise<string> {
 *   // Workflow code here
 *   return "hi";
 * }
 * ```
 *
 * @example
 * To annotate a default or dynamic workflow:
 * ```ts
 * export default async function (): Promise<string> {
 *   // Workflow code here
 *   return "hi";
 * }
 * setWorkflowOptions({
 *   versioningBehavior: 'PINNED',
 *   failureExceptionTypes: [CustomWorkflowError]
 * }, module.exports.default);
 * ```
 *
 * @param options Options for the workflow defintion, or a function that returns options. If a
 * function is provided, it will be called once just before the workflow function is called for the
 * first time. It is safe to call {@link workflowInfo} inside such a function.
 * @param fn The workflow function.
 */
function setWorkflowOptions(options, fn) {
    return defineWorkflowOptions(fn, { workflowDefinitionOptions: options });
}
/**
 * Attach per-execution options and static metadata to a Workflow function.
 *
 * Static options are available before the Workflow function's arguments are decoded.
 *
 * @experimental
 */
function defineWorkflowOptions(fn, config) {
    Object.assign(fn, config);
}
exports.stackTraceQuery = defineQuery('__stack_trace');
exports.enhancedStackTraceQuery = defineQuery('__enhanced_stack_trace');
exports.workflowMetadataQuery = defineQuery('__temporal_workflow_metadata');
function getCurrentDetails() {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('getCurrentDetails() may only be used from a Workflow Execution.');
    return activator.currentDetails;
}
function setCurrentDetails(details) {
    const activator = (0, global_attributes_1.assertInWorkflowContext)('getCurrentDetails() may only be used from a Workflow Execution.');
    activator.currentDetails = details;
}


/***/ },

/***/ "./node_modules/nexus-rpc/lib/common/handler-error.js"
/*!************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/common/handler-error.js ***!
  \************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.HandlerErrorType = exports.HandlerError = void 0;
const symbol_instanceof_1 = __webpack_require__(/*! ../internal/symbol-instanceof */ "./node_modules/nexus-rpc/lib/internal/symbol-instanceof.js");
/**
 * A Nexus handler error.
 *
 * This error class represents an error that occurred during the handling of a
 * Nexus operation that should be reported to the caller as a handler error.
 *
 * Example:
 *
 * ```ts
 *     import { HandlerError } from "nexus-rpc";
 *
 *     // Throw a bad request error
 *     throw new HandlerError("BAD_REQUEST", "Invalid input provided");
 *
 *     // Throw a bad request error, with a cause
 *     throw new HandlerError("BAD_REQUEST", "Invalid input provided", { cause });
 *
 *     // Throw a retryable internal error
 *     throw new HandlerError("INTERNAL", "Database unavailable", { retryableOverride: true });
 *
 * ```
 *
 * @experimental
 */
class HandlerError extends Error {
    /**
     * One of the predefined error types.
     *
     * If the constructor received an unknown string, this will be `"UNKNOWN"`.
     * Use {@link rawErrorType} to access the original string.
     *
     * @see {@link HandlerErrorType}
     */
    type;
    /**
     * The raw error type string.
     *
     * For known types, this equals {@link type}. For unknown types, this preserves
     * the original wire string while {@link type} is set to `"UNKNOWN"`.
     */
    rawErrorType;
    /**
     * Whether this error should be considered retryable.
     *
     * By default, the retry behavior is determined from the error type.
     * For example, by default, `INTERNAL` is retryable, but `UNAVAILABLE` is non-retryable.
     *
     * If specified, `retryableOverride` overrides the default retry behavior determined based on
     * the error type. Use {@link retryable} to determine the effective retry behavior.
     *
     * @see {@link retryable}.
     */
    retryableOverride;
    /**
     * Set if this error was constructed from a {@link Failure} object.
     *
     * Preserves the original failure for round-tripping through the wire format.
     */
    originalFailure;
    /**
     * Constructs a new {@link HandlerError}.
     *
     * @param type - The type of the error. Must be a known {@link HandlerErrorType}.
     * @param message - The message of the error.
     * @param options - Extra options for the error, including the cause and retryable override.
     *
     * @experimental
     */
    constructor(type, message, options) {
        const actualMessage = message || `Handler error: ${type}`;
        super(actualMessage, { cause: options?.cause });
        if (!Object.hasOwn(exports.HandlerErrorType, type)) {
            throw new TypeError(`Invalid HandlerErrorType: ${type}`);
        }
        this.type = type;
        this.rawErrorType = type === "UNKNOWN" ? (options?.rawErrorType ?? type) : type;
        this.retryableOverride = options?.retryableOverride;
        this.originalFailure = options?.originalFailure;
        if (options?.stackTrace !== undefined) {
            this.stack = options.stackTrace;
        }
    }
    /**
     * Whether this error is retryable.
     *
     * This differs from the {@link retryableOverride} property in that `retryable` takes into
     * account the default behavior resulting from the error type, if no override is provided.
     *
     * @see {@link retryableOverride}.
     */
    get retryable() {
        if (typeof this.retryableOverride === "boolean")
            return this.retryableOverride;
        switch (this.type) {
            case "BAD_REQUEST":
            case "UNAUTHENTICATED":
            case "UNAUTHORIZED":
            case "NOT_FOUND":
            case "NOT_IMPLEMENTED":
            case "CONFLICT":
                return false;
            case "UNAVAILABLE":
            case "UPSTREAM_TIMEOUT":
            case "RESOURCE_EXHAUSTED":
            case "INTERNAL":
            case "REQUEST_TIMEOUT":
            case "UNKNOWN":
                return true;
            default: {
                // Force a compile time error if missing a case
                const _noMissingCase = this.type;
                return true;
            }
        }
    }
}
exports.HandlerError = HandlerError;
(0, symbol_instanceof_1.injectSymbolBasedInstanceOf)(HandlerError, "HandlerError");
exports.HandlerErrorType = {
    /**
     * The error type is unknown.
     *
     * Subsequent requests by the client are permissible.
     */
    UNKNOWN: "UNKNOWN",
    /**
     * The handler cannot or will not process the request due to an apparent client error.
     *
     * Clients should not retry this request unless advised otherwise.
     */
    BAD_REQUEST: "BAD_REQUEST",
    /**
     * The client did not supply valid authentication credentials for this request.
     *
     * Clients should not retry this request unless advised otherwise.
     */
    UNAUTHENTICATED: "UNAUTHENTICATED",
    /**
     * The caller does not have permission to execute the specified operation.
     *
     * Clients should not retry this request unless advised otherwise.
     */
    UNAUTHORIZED: "UNAUTHORIZED",
    /**
     * The requested resource could not be found but may be available in the future.
     */
    NOT_FOUND: "NOT_FOUND",
    /**
     * Returned by the server when it has given up handling a request. This may occur by enforcing
     * a client provided `Request-Timeout` or for any arbitrary reason such as enforcing some
     * configurable limit.
     *
     * Subsequent requests by the client are permissible.
     */
    REQUEST_TIMEOUT: "REQUEST_TIMEOUT",
    /**
     * The request could not be made due to a conflict. This may happen when trying to create an
     * operation that has already been started.
     *
     * Clients should not retry this request unless advised otherwise.
     */
    CONFLICT: "CONFLICT",
    /**
     * Some resource has been exhausted, perhaps a per-user quota, or perhaps the entire file system
     * is out of space.
     *
     * Subsequent requests by the client are permissible.
     */
    RESOURCE_EXHAUSTED: "RESOURCE_EXHAUSTED",
    /**
     * An internal error occurred.
     *
     * Subsequent requests by the client are permissible.
     */
    INTERNAL: "INTERNAL",
    /**
     * The server either does not recognize the request method, or it lacks the ability to fulfill the
     * request. Clients should not retry this request unless advised otherwise.
     */
    NOT_IMPLEMENTED: "NOT_IMPLEMENTED",
    /**
     * The service is currently unavailable.
     *
     * Subsequent requests by the client are permissible.
     */
    UNAVAILABLE: "UNAVAILABLE",
    /**
     * Used by gateways to report that a request to an upstream server has timed out.
     *
     * Subsequent requests by the client are permissible.
     */
    UPSTREAM_TIMEOUT: "UPSTREAM_TIMEOUT",
};


/***/ },

/***/ "./node_modules/nexus-rpc/lib/common/index.js"
/*!****************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/common/index.js ***!
  \****************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.OperationError = exports.HandlerErrorType = exports.HandlerError = void 0;
var handler_error_1 = __webpack_require__(/*! ./handler-error */ "./node_modules/nexus-rpc/lib/common/handler-error.js");
Object.defineProperty(exports, "HandlerError", ({ enumerable: true, get: function () { return handler_error_1.HandlerError; } }));
Object.defineProperty(exports, "HandlerErrorType", ({ enumerable: true, get: function () { return handler_error_1.HandlerErrorType; } }));
var operation_error_1 = __webpack_require__(/*! ./operation-error */ "./node_modules/nexus-rpc/lib/common/operation-error.js");
Object.defineProperty(exports, "OperationError", ({ enumerable: true, get: function () { return operation_error_1.OperationError; } }));


/***/ },

/***/ "./node_modules/nexus-rpc/lib/common/operation-error.js"
/*!**************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/common/operation-error.js ***!
  \**************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.OperationError = void 0;
const symbol_instanceof_1 = __webpack_require__(/*! ../internal/symbol-instanceof */ "./node_modules/nexus-rpc/lib/internal/symbol-instanceof.js");
/**
 * A Nexus operation error.
 *
 * This error class represents the abnormal completion of a Nexus operation,
 * that should be reported to the caller as an operation error.
 *
 * Example:
 *
 * ```ts
 *     import { OperationError } from "nexus-rpc";
 *
 *     // Throw a failed operation error
 *     throw new OperationError("failed", "Not enough inventory");
 *
 *     // Throw a failed operation error, with a cause
 *     throw new OperationError("failed", "Not enough inventory", { cause });
 *
 *     // Throw a canceled operation error
 *     throw new OperationError("canceled", "User canceled the operation");
 * ```
 *
 * @experimental
 */
class OperationError extends Error {
    /**
     * State of the operation.
     */
    state;
    /**
     * Set if this error was constructed from a {@link Failure} object.
     *
     * Preserves the original failure for round-tripping through the wire format.
     */
    originalFailure;
    /**
     * Constructs a new {@link OperationError}.
     *
     * @param state - The state of the operation.
     * @param message - The message of the error.
     * @param options - Extra options for the error, e.g. the cause.
     *
     * @experimental
     */
    constructor(state, message, options) {
        const defaultMessage = state === "canceled" ? `Operation canceled` : `Operation failed`;
        const actualMessage = message || defaultMessage;
        super(actualMessage, { cause: options?.cause });
        this.state = state;
        this.originalFailure = options?.originalFailure;
        if (options?.stackTrace !== undefined) {
            this.stack = options.stackTrace;
        }
    }
}
exports.OperationError = OperationError;
(0, symbol_instanceof_1.injectSymbolBasedInstanceOf)(OperationError, "OperationError");


/***/ },

/***/ "./node_modules/nexus-rpc/lib/handler/index.js"
/*!*****************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/handler/index.js ***!
  \*****************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.serviceHandler = exports.ServiceHandler = exports.HandlerStartOperationResult = void 0;
var start_operation_result_1 = __webpack_require__(/*! ./start-operation-result */ "./node_modules/nexus-rpc/lib/handler/start-operation-result.js");
Object.defineProperty(exports, "HandlerStartOperationResult", ({ enumerable: true, get: function () { return start_operation_result_1.HandlerStartOperationResult; } }));
var service_handler_1 = __webpack_require__(/*! ./service-handler */ "./node_modules/nexus-rpc/lib/handler/service-handler.js");
Object.defineProperty(exports, "ServiceHandler", ({ enumerable: true, get: function () { return service_handler_1.ServiceHandler; } }));
Object.defineProperty(exports, "serviceHandler", ({ enumerable: true, get: function () { return service_handler_1.serviceHandler; } }));


/***/ },

/***/ "./node_modules/nexus-rpc/lib/handler/operation-handler.js"
/*!*****************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/handler/operation-handler.js ***!
  \*****************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.compileOperationHandler = compileOperationHandler;
const common_1 = __webpack_require__(/*! ../common */ "./node_modules/nexus-rpc/lib/common/index.js");
const start_operation_result_1 = __webpack_require__(/*! ./start-operation-result */ "./node_modules/nexus-rpc/lib/handler/start-operation-result.js");
/**
 * Compiles an operation handler into a {@link CompiledOperationHandler}. A compiled operation
 * handler is a single object that is both an operation definition and a full-fledged operation
 * handler for that operation.
 *
 * @hidden
 * @internal
 */
function compileOperationHandler(definition, handler) {
    if (handler == null) {
        throw new TypeError(`No handler registered for operation '${definition.name}' (expected property name '${definition.name}')`);
    }
    if (typeof handler === "function") {
        // Operation handler is declared using the shortcut syntax. Wrap it into a full-fledged handler.
        return {
            ...definition,
            start: async (ctx, input) => {
                return start_operation_result_1.HandlerStartOperationResult.sync(await handler(ctx, input));
            },
            cancel: notImplemented,
        };
    }
    if (typeof handler.start !== "function") {
        throw new TypeError(`Handler for operation '${definition.name}' has no start method`);
    }
    return {
        ...definition,
        // Defensively ensure that the handler has all the required methods,
        // defaulting to throwing a not implemented error if some methods are missing.
        start: handler.start.bind(handler),
        cancel: handler.cancel?.bind(handler) ?? notImplemented,
    };
}
/**
 * @internal
 * @hidden
 */
function notImplemented() {
    throw new common_1.HandlerError("NOT_IMPLEMENTED", "Not implemented");
}


/***/ },

/***/ "./node_modules/nexus-rpc/lib/handler/service-handler.js"
/*!***************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/handler/service-handler.js ***!
  \***************************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.ServiceHandler = void 0;
exports.serviceHandler = serviceHandler;
const common_1 = __webpack_require__(/*! ../common */ "./node_modules/nexus-rpc/lib/common/index.js");
const operation_handler_1 = __webpack_require__(/*! ./operation-handler */ "./node_modules/nexus-rpc/lib/handler/operation-handler.js");
/**
 * A Nexus Service implementation, that provides handlers for each of its operations.
 *
 * @experimental
 */
class ServiceHandler {
    definition;
    handlers;
    operationsMap;
    /**
     * Build a `ServiceHandler` from a service definition and a collection of operation handlers.
     *
     * There must be an operation handler for every operation in the service definition.
     *
     * @param service The service definition
     * @param handlers The collection of handlers
     * @returns The compiled service handler
     *
     * @internal
     * @hidden
     */
    static build(service, handlers) {
        const operations = new Map();
        for (const [propName, definition] of Object.entries(service.operations)) {
            const compiledOpHandler = (0, operation_handler_1.compileOperationHandler)(definition, handlers[propName]);
            const operationName = compiledOpHandler.name;
            if (operations.has(operationName)) {
                throw new TypeError(`Operation with name '${operationName}' already registered for service '${service.name}'`);
            }
            operations.set(operationName, compiledOpHandler);
        }
        return new ServiceHandler(service, handlers, operations);
    }
    constructor(definition, handlers, operationsMap) {
        this.definition = definition;
        this.handlers = handlers;
        this.operationsMap = operationsMap;
    }
    /**
     * Returns the definition and handler for a given operation.
     *
     * @param operationName
     */
    getOperationHandler(operationName) {
        const entry = this.operationsMap.get(operationName);
        if (entry == null) {
            throw new common_1.HandlerError("NOT_FOUND", `Operation handler not registered for operation '${operationName}' in service '${this.definition.name}'`);
        }
        return entry;
    }
}
exports.ServiceHandler = ServiceHandler;
/**
 * Constructs a service handler for a given service contract.
 *
 * @experimental
 */
function serviceHandler(service, handlers) {
    return ServiceHandler.build(service, handlers);
}


/***/ },

/***/ "./node_modules/nexus-rpc/lib/handler/start-operation-result.js"
/*!**********************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/handler/start-operation-result.js ***!
  \**********************************************************************/
(__unused_webpack_module, exports) {

"use strict";

/** @import { OperationHandler } from "./operation-handler" */
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.HandlerStartOperationResult = void 0;
/**
 * An internal symbol, used to prevent direct implementation of interfaces.
 *
 * @hidden
 * @internal
 */
const isHandlerStartOperationResultSymbol = Symbol("__nexus_isHandlerStartOperationResult");
/**
 * The return type from the {@link OperationHandler.start} method.
 *
 * Use either {@link HandlerStartOperationResult.sync} or {@link HandlerStartOperationResult.async}
 * to create a result object. Do not implement this interface directly.
 *
 * @experimental
 */
exports.HandlerStartOperationResult = {
    /**
     * Create a result that indicates that an operation has been accepted and will complete asynchronously.
     */
    async(token) {
        return {
            isAsync: true,
            token,
            [isHandlerStartOperationResultSymbol]: true,
        };
    },
    /**
     * Create a result that indicates that an operation completed successfully.
     */
    sync(value) {
        return {
            isAsync: false,
            value,
            [isHandlerStartOperationResultSymbol]: true,
        };
    },
    [Symbol.hasInstance]: function (value) {
        return (typeof value === "object" &&
            value !== null &&
            value[isHandlerStartOperationResultSymbol] === true);
    },
};


/***/ },

/***/ "./node_modules/nexus-rpc/lib/index.js"
/*!*********************************************!*\
  !*** ./node_modules/nexus-rpc/lib/index.js ***!
  \*********************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", ({ value: true }));
__exportStar(__webpack_require__(/*! ./common */ "./node_modules/nexus-rpc/lib/common/index.js"), exports);
__exportStar(__webpack_require__(/*! ./service */ "./node_modules/nexus-rpc/lib/service/index.js"), exports);
__exportStar(__webpack_require__(/*! ./handler */ "./node_modules/nexus-rpc/lib/handler/index.js"), exports);


/***/ },

/***/ "./node_modules/nexus-rpc/lib/internal/object-utils.js"
/*!*************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/internal/object-utils.js ***!
  \*************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.mapKeyValues = mapKeyValues;
/**
 * Creates a new object by mapping all string properties (keys and values) of an existing object
 * through a mapper function.
 *
 * @param obj - The source object, whose properties will be mapped.
 * @param fn - The mapper function.
 *
 * @returns A new object with the properties mapped to the new type.
 *
 * @internal
 * @hidden
 */
function mapKeyValues(obj, fn) {
    return Object.fromEntries(Object.entries(obj).map(([key, value]) => [key, fn(key, value)]));
}


/***/ },

/***/ "./node_modules/nexus-rpc/lib/internal/symbol-instanceof.js"
/*!******************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/internal/symbol-instanceof.js ***!
  \******************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.injectSymbolBasedInstanceOf = injectSymbolBasedInstanceOf;
/**
 * Inject a custom 'instanceof' handler on the given class, that works correctly across execution contexts.
 *
 * ### Details ###
 *
 * According to the EcmaScript's spec, the default behavior of JavaScript's `x instanceof Y` operator is to walk up the
 * prototype chain of object 'x', checking if any constructor in that hierarchy is _exactly the same object_ as the
 * constructor function 'Y'.
 *
 * Unfortunately, it happens in various situations that different constructor function objects get created for what
 * appears to be the very same class. This leads to surprising behavior where `instanceof` returns false though it is
 * known that the object is indeed an instance of that class. One particular case where this happens is when constructor
 * 'Y' belongs to a different realm than the constuctor with which 'x' was instantiated. Another case is when two copies
 * of the same library gets loaded in the same realm.
 *
 * In practice, this tends to cause issues when crossing the workflow-sandboxing boundary (since Node's vm module
 * really creates new execution realms), as well as when running tests using Jest (see https://github.com/jestjs/jest/issues/2549
 * for some details on that one).
 *
 * This function injects a custom 'instanceof' handler into the prototype of 'clazz', which is both cross-realm safe and
 * cross-copies-of-the-same-lib safe. It works by adding a special symbol property to the prototype of 'clazz', and then
 * checking for the presence of that symbol.
 *
 * @internal
 * @hidden
 */
function injectSymbolBasedInstanceOf(clazz, markerName) {
    // It may seem redundant to have an explicit markerName argument here. Can't we simply use the class
    // function name for that? Unfortunately, no, as the class name may get mangled if the file gets minified.
    const marker = Symbol.for(`__nexus_is${markerName}`);
    Object.defineProperty(clazz.prototype, "name", { value: markerName, enumerable: true });
    Object.defineProperty(clazz.prototype, marker, { value: true, enumerable: false });
    Object.defineProperty(clazz, Symbol.hasInstance, {
        value: function (value) {
            if (this === clazz) {
                return typeof value === "object" && value !== null && value[marker] === true;
            }
            else {
                // 'this' must be a _subclass_ of clazz that doesn't redefined [Symbol.hasInstance], so that it inherited
                // from clazz's [Symbol.hasInstance]. If we don't handle this particular situation, then
                // `x instanceof SubclassOfParent` would return true for any instance of 'Parent', which is clearly wrong.
                //
                // Ideally, it'd be preferable to avoid this case entirely, by making sure that all subclasses of 'clazz'
                // redefine [Symbol.hasInstance], but we can't enforce that. We therefore fallback to the default instanceof
                // behavior (which is NOT cross-realm safe).
                return this.prototype.isPrototypeOf(value); // eslint-disable-line no-prototype-builtins
            }
        },
    });
}


/***/ },

/***/ "./node_modules/nexus-rpc/lib/service/helpers.js"
/*!*******************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/service/helpers.js ***!
  \*******************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.service = service;
exports.operation = operation;
const object_utils_1 = __webpack_require__(/*! ../internal/object-utils */ "./node_modules/nexus-rpc/lib/internal/object-utils.js");
const service_definition_1 = __webpack_require__(/*! ./service-definition */ "./node_modules/nexus-rpc/lib/service/service-definition.js");
/**
 * Construct a service definition for a collection of operations.
 *
 * @experimental
 */
function service(name, operations) {
    const service = {
        name,
        operations: (0, object_utils_1.mapKeyValues)(operations, (key, op) => ({
            ...op,
            name: op.name || key,
        })),
    };
    (0, service_definition_1.validateServiceDefinition)(service);
    return service;
}
/**
 * Construct an operation definition as part of a service contract.
 *
 * @experimental
 */
function operation(op) {
    return { ...op };
}


/***/ },

/***/ "./node_modules/nexus-rpc/lib/service/index.js"
/*!*****************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/service/index.js ***!
  \*****************************************************/
(__unused_webpack_module, exports, __webpack_require__) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.operation = exports.service = void 0;
var helpers_1 = __webpack_require__(/*! ./helpers */ "./node_modules/nexus-rpc/lib/service/helpers.js");
Object.defineProperty(exports, "service", ({ enumerable: true, get: function () { return helpers_1.service; } }));
Object.defineProperty(exports, "operation", ({ enumerable: true, get: function () { return helpers_1.operation; } }));


/***/ },

/***/ "./node_modules/nexus-rpc/lib/service/service-definition.js"
/*!******************************************************************!*\
  !*** ./node_modules/nexus-rpc/lib/service/service-definition.js ***!
  \******************************************************************/
(__unused_webpack_module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.validateServiceDefinition = validateServiceDefinition;
/**
 * Confirm that a service definition is valid.
 *
 * @param service - The service definition to validate.
 *
 * @throws {TypeError} If the service definition is invalid.
 *
 * @experimental
 */
function validateServiceDefinition(service) {
    if (typeof service.name !== "string" || !service.name) {
        throw new TypeError("Service name must be a non-empty string");
    }
    const operationNames = new Set();
    for (const [propName, operation] of Object.entries(service.operations)) {
        const operationName = operation.name;
        if (typeof operationName !== "string" || !operationName) {
            throw new TypeError(`Operation name must be a non-empty string, for property '${propName}'`);
        }
        if (operationNames.has(operationName)) {
            throw new TypeError(`Duplicate operation definition for name: '${operationName}'`);
        }
        operationNames.add(operationName);
    }
}


/***/ },

/***/ "./src/model/billing.ts"
/*!******************************!*\
  !*** ./src/model/billing.ts ***!
  \******************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   COLLECTION_POLICY: () => (/* binding */ COLLECTION_POLICY),
/* harmony export */   FREE_WEEK_MAX_EARNINGS_PENCE: () => (/* binding */ FREE_WEEK_MAX_EARNINGS_PENCE),
/* harmony export */   MAX_EXTENSION_DAYS: () => (/* binding */ MAX_EXTENSION_DAYS),
/* harmony export */   MAX_TRIAL_DAYS: () => (/* binding */ MAX_TRIAL_DAYS),
/* harmony export */   MIN_COLLECTION_PENCE: () => (/* binding */ MIN_COLLECTION_PENCE),
/* harmony export */   SMS_PENCE: () => (/* binding */ SMS_PENCE),
/* harmony export */   TRIAL_DAYS: () => (/* binding */ TRIAL_DAYS),
/* harmony export */   WEEKLY_FEE_PENCE: () => (/* binding */ WEEKLY_FEE_PENCE),
/* harmony export */   WEEK_MS: () => (/* binding */ WEEK_MS),
/* harmony export */   cardFeePence: () => (/* binding */ cardFeePence),
/* harmony export */   invoiceReference: () => (/* binding */ invoiceReference),
/* harmony export */   londonDate: () => (/* binding */ londonDate),
/* harmony export */   londonOffsetMs: () => (/* binding */ londonOffsetMs),
/* harmony export */   nextWeekStart: () => (/* binding */ nextWeekStart),
/* harmony export */   partnerWeekCharge: () => (/* binding */ partnerWeekCharge),
/* harmony export */   weekCharge: () => (/* binding */ weekCharge),
/* harmony export */   weekInvoice: () => (/* binding */ weekInvoice),
/* harmony export */   weekStartAtOrAfter: () => (/* binding */ weekStartAtOrAfter),
/* harmony export */   weekStartOf: () => (/* binding */ weekStartOf)
/* harmony export */ });
// The drivers' and partners' billing as the business states it (spec section 8, docs/billing.md):
// the billing week, the price list, what a week's invoice says and how an unpaid one is followed
// up. Shared by src/, activities/ and workflows/ (whose contract is workflows/billing/definitions.ts),
// so it stays pure: no Node built-ins, no I/O, nothing imported from outside src/model/.
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// Billing weeks run Monday 00:00 to Monday 00:00 Europe/London. Workflow code cannot load a time
// zone database (luxon stays out of the workflow bundle, and Intl's zone data moves with a worker's
// Node version, which a replay must never notice), so the UK rule is written out:
// BST (UTC+1) from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of
// October, GMT otherwise. test/unit/billing/weeks.test.ts holds it to
// luxon's tz data hour by hour across 2026-2028.
const HOUR_MS = 3600000;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;
/** 01:00 UTC on the last Sunday of a month (0-based), when the UK clocks change. */ function lastSundayAt0100Utc(year, month) {
    const lastDay = Date.UTC(year, month + 1, 0);
    return lastDay - new Date(lastDay).getUTCDay() * DAY_MS + HOUR_MS;
}
/** Europe/London's offset from UTC at an instant: one hour in summer time, else none. */ function londonOffsetMs(t) {
    const year = new Date(t).getUTCFullYear();
    return t >= lastSundayAt0100Utc(year, 2) && t < lastSundayAt0100Utc(year, 9) ? HOUR_MS : 0;
}
/**
 * The instant a London wall-clock midnight happens (wall time given as if it were UTC). Midnight
 * is never in a gap or an overlap: the clocks change at 01:00 and 02:00 local on a Sunday.
 */ function londonMidnightToUtc(wall) {
    const summer = wall - HOUR_MS;
    return londonOffsetMs(summer) === HOUR_MS ? summer : wall;
}
/** Monday 00:00 Europe/London at or before t: the start of the billing week t falls in. */ function weekStartOf(t) {
    const local = new Date(t + londonOffsetMs(t));
    const daysSinceMonday = (local.getUTCDay() + 6) % 7;
    return londonMidnightToUtc(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - daysSinceMonday));
}
/**
 * The first Monday 00:00 Europe/London strictly after t. Seven calendar days on, not 168 hours:
 * a week spanning a clock change is 167 or 169 hours long.
 */ function nextWeekStart(t) {
    const start = weekStartOf(t);
    return londonMidnightToUtc(start + londonOffsetMs(start) + WEEK_MS);
}
/** The first week boundary at or after t: a trial ending exactly on a Monday midnight bills that week. */ function weekStartAtOrAfter(t) {
    const start = weekStartOf(t);
    return start === t ? t : nextWeekStart(t);
}
/** The London calendar date (YYYY-MM-DD) of an instant; a week's Monday names it in ids. */ function londonDate(t) {
    return new Date(t + londonOffsetMs(t)).toISOString().slice(0, 10);
}
// The price list (spec section 8). Money is integer pence.
const TRIAL_DAYS = {
    local: 90,
    national: 90,
    partner: 30
};
/** Earnings above this in a week make it a paid week. */ const FREE_WEEK_MAX_EARNINGS_PENCE = 50000;
const WEEKLY_FEE_PENCE = 2000;
const SMS_PENCE = 2;
/** Days one extension may add (spec 8: the trial is "extendable by an administrator"). */ const MAX_EXTENSION_DAYS = 90;
/** A trial is never longer than this in all, however often it is extended. */ const MAX_TRIAL_DAYS = 365;
/** What a week costs: the fee only above 500 GBP of earnings; SMS pass-through either way. */ function weekCharge(earningsPence, smsCount) {
    const feePence = earningsPence > FREE_WEEK_MAX_EARNINGS_PENCE ? WEEKLY_FEE_PENCE : 0;
    const smsPence = smsCount * SMS_PENCE;
    return {
        feePence,
        smsPence,
        totalPence: feePence + smsPence,
        status: feePence > 0 ? 'billed' : 'free'
    };
}
const pounds = (pence)=>`£${(pence / 100).toFixed(2)}`;
/** The card rail's processor fee on one payment: basis points rounded to the nearest penny, plus the fixed part. */ function cardFeePence(paymentPence, prices) {
    return Math.round(paymentPence * prices.cardFeeBasisPoints / 10000) + prices.cardFeeFixedPence;
}
/**
 * The week's invoice, itemised: the 20 GBP fee above 500 GBP of earnings, SMS pass-through, the
 * third-party source's per-job fee and the card processor fee. Lines are written only for what is
 * charged; the total is their sum, and status says whether the weekly fee applied (a free week can
 * still owe SMS or card fees).
 */ function weekInvoice(f, prices) {
    const base = weekCharge(f.earningsPence, f.smsCount);
    const thirdPartyPence = prices.thirdPartySource ? f.thirdPartyJobs * prices.thirdPartyJobFeePence : 0;
    const thirdPartyJobs = prices.thirdPartySource ? f.thirdPartyJobs : 0;
    const cardPence = f.cardPayments.reduce((sum, p)=>sum + cardFeePence(p, prices), 0);
    const cardTakings = f.cardPayments.reduce((sum, p)=>sum + p, 0);
    const lines = [];
    if (base.feePence > 0) {
        lines.push({
            kind: 'weekly_fee',
            quantity: 1,
            unitPence: base.feePence,
            amountPence: base.feePence,
            description: `Weekly subscription: earnings ${pounds(f.earningsPence)}, above ${pounds(FREE_WEEK_MAX_EARNINGS_PENCE)}`
        });
    }
    if (f.smsCount > 0) {
        lines.push({
            kind: 'sms',
            quantity: f.smsCount,
            unitPence: SMS_PENCE,
            amountPence: base.smsPence,
            description: `SMS pass-through: ${f.smsCount} text${f.smsCount === 1 ? '' : 's'} at ${SMS_PENCE}p`
        });
    }
    if (thirdPartyJobs > 0) {
        lines.push({
            kind: 'third_party_jobs',
            quantity: thirdPartyJobs,
            unitPence: prices.thirdPartyJobFeePence,
            amountPence: thirdPartyPence,
            description: `Jobs from ${prices.thirdPartySource}: ${thirdPartyJobs} at ${pounds(prices.thirdPartyJobFeePence)}`
        });
    }
    if (f.cardPayments.length > 0) {
        lines.push({
            kind: 'card_processing',
            quantity: f.cardPayments.length,
            unitPence: null,
            amountPence: cardPence,
            description: `Card processing: ${(prices.cardFeeBasisPoints / 100).toFixed(2)}% + ${pounds(prices.cardFeeFixedPence)} on each of ${f.cardPayments.length} card payment${f.cardPayments.length === 1 ? '' : 's'} (${pounds(cardTakings)})`
        });
    }
    return _object_spread_props(_object_spread({}, base), {
        thirdPartyJobs,
        thirdPartyPence,
        cardTrips: f.cardPayments.length,
        cardPence,
        totalPence: base.totalPence + thirdPartyPence + cardPence,
        lines
    });
}
/** The provider's idempotency key for the invoice: a retried request is the same collection. */ function invoiceReference(k) {
    return `invoice:${k.account}:${k.accountId}:${londonDate(Date.parse(k.weekStart))}`;
}
/**
 * Card providers refuse smaller charges (Stripe's minimum in GBP is 30p): a week owing less (a few
 * texts) is not collected; it stays on the record, shown as below the minimum.
 */ const MIN_COLLECTION_PENCE = 30;
/** How an unpaid invoice is followed up, counted from the day its collection opens. */ const COLLECTION_POLICY = {
    /** A reminder every this many days while unpaid... */ reminderEveryDays: 3,
    /** ...at most this many (each is a text to the driver). */ maxReminders: 3,
    /** Unpaid this long: overdue, and ops are alerted. */ overdueAfterDays: 14,
    /** The workflow listens for a payment this long; later payments are applied by the webhook directly. */ followForDays: 60
};
// Partners' weekly invoices: SMS pass-through for their jobs.
/** What a partner's week costs: 2p per SMS sent about its jobs, itemised. */ function partnerWeekCharge(smsCount) {
    const smsPence = smsCount * SMS_PENCE;
    const lines = smsCount > 0 ? [
        {
            kind: 'sms',
            quantity: smsCount,
            unitPence: SMS_PENCE,
            amountPence: smsPence,
            description: `SMS pass-through: ${smsCount} text${smsCount === 1 ? '' : 's'} at ${SMS_PENCE}p about your jobs`
        }
    ] : [];
    return {
        smsPence,
        totalPence: smsPence,
        lines
    };
}


/***/ },

/***/ "./src/model/booking-state.ts"
/*!************************************!*\
  !*** ./src/model/booking-state.ts ***!
  \************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   TAKEN_BY_ANOTHER: () => (/* binding */ TAKEN_BY_ANOTHER),
/* harmony export */   amended: () => (/* binding */ amended),
/* harmony export */   answered: () => (/* binding */ answered),
/* harmony export */   assigned: () => (/* binding */ assigned),
/* harmony export */   cancelled: () => (/* binding */ cancelled),
/* harmony export */   confirmedBy: () => (/* binding */ confirmedBy),
/* harmony export */   droppedBy: () => (/* binding */ droppedBy),
/* harmony export */   endedByOps: () => (/* binding */ endedByOps),
/* harmony export */   exchangeChanged: () => (/* binding */ exchangeChanged),
/* harmony export */   offersOut: () => (/* binding */ offersOut),
/* harmony export */   opened: () => (/* binding */ opened),
/* harmony export */   paid: () => (/* binding */ paid),
/* harmony export */   recorded: () => (/* binding */ recorded),
/* harmony export */   released: () => (/* binding */ released),
/* harmony export */   rerouted: () => (/* binding */ rerouted),
/* harmony export */   roundBegun: () => (/* binding */ roundBegun),
/* harmony export */   seen: () => (/* binding */ seen),
/* harmony export */   statusSet: () => (/* binding */ statusSet),
/* harmony export */   suspended: () => (/* binding */ suspended),
/* harmony export */   tierCounted: () => (/* binding */ tierCounted)
/* harmony export */ });
/* harmony import */ var _bookings_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! ./bookings.js */ "./src/model/bookings.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// The booking's state: what the bookingState query answers, moved by the booking workflow
// (workflows/bookings/) only through the pure transitions below (unit-tested without a workflow);
// the rules that read it are ./bookings.ts.
;
/** The decision log's reason for a card withdrawn because another driver of the group accepted first. */ const TAKEN_BY_ANOTHER = 'taken_by_another_driver';
function opened(input, nowMs) {
    var _b_identity;
    const b = input.booking;
    return {
        ref: b.ref,
        identity: (_b_identity = b.identity) !== null && _b_identity !== void 0 ? _b_identity : null,
        status: _bookings_js__WEBPACK_IMPORTED_MODULE_0__.initialStatus(input, nowMs),
        job: _object_spread({}, input.job),
        round: 0,
        driverId: null,
        offer: null,
        candidates: [],
        droppedDriverIds: [],
        cancelReason: null,
        fare: {
            farePence: b.farePence,
            fareSource: b.fareSource
        },
        pickup: b.pickup,
        dropoff: b.dropoff
    };
}
const statusSet = (s, status)=>_object_spread_props(_object_spread({}, s), {
        status
    });
const roundBegun = (s)=>_object_spread_props(_object_spread({}, s), {
        round: s.round + 1
    });
const tierCounted = (s, t)=>{
    var _s_tiers;
    return _object_spread_props(_object_spread({}, s), {
        tiers: [
            ...(_s_tiers = s.tiers) !== null && _s_tiers !== void 0 ? _s_tiers : [],
            t
        ]
    });
};
/** The decision log: every driver considered, and what became of them. */ function recorded(s, e) {
    var _e_reason;
    const line = _object_spread_props(_object_spread({
        round: s.round,
        tier: e.tier
    }, e.candidate), {
        outcome: e.outcome,
        reason: (_e_reason = e.reason) !== null && _e_reason !== void 0 ? _e_reason : null,
        at: e.at
    });
    return _object_spread_props(_object_spread({}, s), {
        candidates: [
            ...s.candidates,
            line
        ]
    });
}
/** The cards out now (`offer` is the first, so "a card is out" reads the same for a group of one). */ const offersOut = (s, offers)=>{
    var _offers_;
    return _object_spread_props(_object_spread({}, s), {
        group: offers.length > 0 ? offers : null,
        offer: (_offers_ = offers[0]) !== null && _offers_ !== void 0 ? _offers_ : null
    });
};
const offerChanged = (s, offerId, change)=>offersOut(s, _bookings_js__WEBPACK_IMPORTED_MODULE_0__.openOffers(s).map((o)=>o.offerId === offerId ? _object_spread({}, o, change) : o));
/** The driver answered their card: recorded on it at once, so a repeated answer hears the same. */ const answered = (s, offerId, response)=>offerChanged(s, offerId, {
        response
    });
/** The driver opened the card: it is given the full window. */ const seen = (s, offerId)=>offerChanged(s, offerId, {
        seen: true
    });
const assigned = (s, driverId)=>_object_spread_props(_object_spread({}, offersOut(s, [])), {
        driverId,
        status: 'assigned'
    });
/** The driver no longer has the job (dropped it, no-show, suspended, no longer fits): dispatch again. */ function released(s, d) {
    const c = {
        driverId: d.driverId,
        driverName: '',
        distanceMeters: null
    };
    const logged = recorded(s, {
        tier: 'local',
        candidate: c,
        outcome: d.outcome,
        reason: d.reason,
        at: d.at
    });
    return _object_spread_props(_object_spread({}, logged), {
        driverId: null,
        status: 'dispatching'
    });
}
/** A driver who gave the job back (or was let go for not turning up) is never offered it again. */ const droppedBy = (s, driverId)=>_object_spread_props(_object_spread({}, s), {
        droppedDriverIds: [
            ...s.droppedDriverIds,
            driverId
        ]
    });
const suspended = (s, driverId)=>{
    var _s_suspendedDriverIds;
    return _bookings_js__WEBPACK_IMPORTED_MODULE_0__.isSuspended(s, driverId) ? s : _object_spread_props(_object_spread({}, s), {
        suspendedDriverIds: [
            ...(_s_suspendedDriverIds = s.suspendedDriverIds) !== null && _s_suspendedDriverIds !== void 0 ? _s_suspendedDriverIds : [],
            driverId
        ]
    });
};
const confirmedBy = (s, driverId)=>_object_spread_props(_object_spread({}, s), {
        confirmedDriverId: driverId
    });
const endedByOps = (s, reason)=>_object_spread_props(_object_spread({}, s), {
        ended: {
            by: 'ops',
            reason
        }
    });
const paid = (s, payment)=>_object_spread_props(_object_spread({}, s), {
        payment
    });
const cancelled = (s, reason)=>_object_spread_props(_object_spread({}, s), {
        offer: null,
        cancelReason: reason,
        status: 'cancelled'
    });
const amended = (s, job)=>_object_spread_props(_object_spread({}, s), {
        job
    });
const rerouted = (s, route, fare)=>_object_spread({}, s, route ? {
        pickup: route.pickup,
        dropoff: route.dropoff
    } : {}, fare ? {
        fare
    } : {});
const exchangeChanged = (s, change)=>{
    var _s_exchange;
    return _object_spread_props(_object_spread({}, s), {
        exchange: _object_spread({}, (_s_exchange = s.exchange) !== null && _s_exchange !== void 0 ? _s_exchange : _bookings_js__WEBPACK_IMPORTED_MODULE_0__.NO_EXCHANGE, change)
    });
};


/***/ },

/***/ "./src/model/bookings.ts"
/*!*******************************!*\
  !*** ./src/model/bookings.ts ***!
  \*******************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ACTIVE_STATUSES: () => (/* binding */ ACTIVE_STATUSES),
/* harmony export */   BOOKING_REF_PATTERN: () => (/* binding */ BOOKING_REF_PATTERN),
/* harmony export */   BOOKING_STATUSES: () => (/* binding */ BOOKING_STATUSES),
/* harmony export */   BookingFailure: () => (/* binding */ BookingFailure),
/* harmony export */   CANDIDATE_PAGE_SIZE: () => (/* binding */ CANDIDATE_PAGE_SIZE),
/* harmony export */   DRIVER_ON_THE_WAY: () => (/* binding */ DRIVER_ON_THE_WAY),
/* harmony export */   EXCHANGE_FAILURE: () => (/* binding */ EXCHANGE_FAILURE),
/* harmony export */   EXCHANGE_WITH_DRIVER: () => (/* binding */ EXCHANGE_WITH_DRIVER),
/* harmony export */   MAX_SETTLEMENT_PENCE: () => (/* binding */ MAX_SETTLEMENT_PENCE),
/* harmony export */   NEXT_TRIP_STEPS: () => (/* binding */ NEXT_TRIP_STEPS),
/* harmony export */   NOTHING_DUE: () => (/* binding */ NOTHING_DUE),
/* harmony export */   NO_EXCHANGE: () => (/* binding */ NO_EXCHANGE),
/* harmony export */   NO_NEEDS: () => (/* binding */ NO_NEEDS),
/* harmony export */   PAYMENT_METHODS: () => (/* binding */ PAYMENT_METHODS),
/* harmony export */   SEARCH_PAST_PICKUP_MS: () => (/* binding */ SEARCH_PAST_PICKUP_MS),
/* harmony export */   SETTLEMENT_METHODS: () => (/* binding */ SETTLEMENT_METHODS),
/* harmony export */   TERMINAL_STATUSES: () => (/* binding */ TERMINAL_STATUSES),
/* harmony export */   TIERS: () => (/* binding */ TIERS),
/* harmony export */   UNASSIGNED_GRACE_MS: () => (/* binding */ UNASSIGNED_GRACE_MS),
/* harmony export */   WAITING_RETRY_MAX_MS: () => (/* binding */ WAITING_RETRY_MAX_MS),
/* harmony export */   acceptedWellAhead: () => (/* binding */ acceptedWellAhead),
/* harmony export */   amendRefusal: () => (/* binding */ amendRefusal),
/* harmony export */   amendmentsFolded: () => (/* binding */ amendmentsFolded),
/* harmony export */   backoffMs: () => (/* binding */ backoffMs),
/* harmony export */   boardClaimRefusal: () => (/* binding */ boardClaimRefusal),
/* harmony export */   cancelRefusal: () => (/* binding */ cancelRefusal),
/* harmony export */   candidatePageQuery: () => (/* binding */ candidatePageQuery),
/* harmony export */   cardDeadline: () => (/* binding */ cardDeadline),
/* harmony export */   cascadeOfferRules: () => (/* binding */ cascadeOfferRules),
/* harmony export */   closedRefusal: () => (/* binding */ closedRefusal),
/* harmony export */   completedBySettling: () => (/* binding */ completedBySettling),
/* harmony export */   confirmTimes: () => (/* binding */ confirmTimes),
/* harmony export */   createdRefusal: () => (/* binding */ createdRefusal),
/* harmony export */   dispatchTime: () => (/* binding */ dispatchTime),
/* harmony export */   emailDeadline: () => (/* binding */ emailDeadline),
/* harmony export */   endTripRefusal: () => (/* binding */ endTripRefusal),
/* harmony export */   endTripSettlement: () => (/* binding */ endTripSettlement),
/* harmony export */   exchangeJobSent: () => (/* binding */ exchangeJobSent),
/* harmony export */   fleetCandidate: () => (/* binding */ fleetCandidate),
/* harmony export */   fleetPickRefusal: () => (/* binding */ fleetPickRefusal),
/* harmony export */   heldOfferId: () => (/* binding */ heldOfferId),
/* harmony export */   holderSuspended: () => (/* binding */ holderSuspended),
/* harmony export */   initialStatus: () => (/* binding */ initialStatus),
/* harmony export */   isClosed: () => (/* binding */ isClosed),
/* harmony export */   isNextTripStep: () => (/* binding */ isNextTripStep),
/* harmony export */   isSuspended: () => (/* binding */ isSuspended),
/* harmony export */   isTaken: () => (/* binding */ isTaken),
/* harmony export */   namedOfferRules: () => (/* binding */ namedOfferRules),
/* harmony export */   noShowTime: () => (/* binding */ noShowTime),
/* harmony export */   notToAskAgain: () => (/* binding */ notToAskAgain),
/* harmony export */   offerAnswerRefusal: () => (/* binding */ offerAnswerRefusal),
/* harmony export */   offerId: () => (/* binding */ offerId),
/* harmony export */   openOffer: () => (/* binding */ openOffer),
/* harmony export */   openOffers: () => (/* binding */ openOffers),
/* harmony export */   opsPickRefusal: () => (/* binding */ opsPickRefusal),
/* harmony export */   parseOfferId: () => (/* binding */ parseOfferId),
/* harmony export */   passengerHearsFromUs: () => (/* binding */ passengerHearsFromUs),
/* harmony export */   searchEndsAt: () => (/* binding */ searchEndsAt),
/* harmony export */   settlementKey: () => (/* binding */ settlementKey),
/* harmony export */   settlementRefusal: () => (/* binding */ settlementRefusal),
/* harmony export */   statusFromFleet: () => (/* binding */ statusFromFleet),
/* harmony export */   statusHeldByFleet: () => (/* binding */ statusHeldByFleet),
/* harmony export */   takenRefusal: () => (/* binding */ takenRefusal),
/* harmony export */   tripReportRefusal: () => (/* binding */ tripReportRefusal)
/* harmony export */ });
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function _object_without_properties(source, excluded) {
    if (source == null) return {};
    var target = {}, sourceKeys, key, i;
    if (typeof Reflect !== "undefined" && Reflect.ownKeys) {
        sourceKeys = Reflect.ownKeys(Object(source));
        for(i = 0; i < sourceKeys.length; i++){
            key = sourceKeys[i];
            if (excluded.indexOf(key) >= 0) continue;
            if (!Object.prototype.propertyIsEnumerable.call(source, key)) continue;
            target[key] = source[key];
        }
        return target;
    }
    target = _object_without_properties_loose(source, excluded);
    if (Object.getOwnPropertySymbols) {
        sourceKeys = Object.getOwnPropertySymbols(source);
        for(i = 0; i < sourceKeys.length; i++){
            key = sourceKeys[i];
            if (excluded.indexOf(key) >= 0) continue;
            if (!Object.prototype.propertyIsEnumerable.call(source, key)) continue;
            target[key] = source[key];
        }
    }
    return target;
}
function _object_without_properties_loose(source, excluded) {
    if (source == null) return {};
    var target = {}, sourceKeys = Object.getOwnPropertyNames(source), key, i;
    for(i = 0; i < sourceKeys.length; i++){
        key = sourceKeys[i];
        if (excluded.indexOf(key) >= 0) continue;
        if (!Object.prototype.propertyIsEnumerable.call(source, key)) continue;
        target[key] = source[key];
    }
    return target;
}
// The booking as the business states it: its statuses, the job and the places, how dispatch offers
// it (tiers, candidates, offers), the steps of a trip, what the passenger is told, how it is paid
// for, the exchange fleets, and the domain's "no"s (BookingFailure). Shared by src/, activities/ and
// workflows/ (whose Temporal contract is workflows/bookings/definitions.ts), so it stays pure: no
// Node built-ins, no I/O, nothing imported from outside src/model/.
/** Published in the OpenAPI document; the Postgres record always holds one of these. */ const BOOKING_STATUSES = [
    'awaiting_confirmation',
    'scheduled',
    'dispatching',
    'offered',
    'assigned',
    'en_route',
    'arrived',
    'on_board',
    'completed',
    'cancelled',
    'unassigned',
    'no_show'
];
const TERMINAL_STATUSES = [
    'completed',
    'cancelled',
    'no_show'
];
/**
 * Dispatch tiers in cascade order: a job goes to the next tier only when the previous one has nobody
 * left to ask. The one declaration: workflow code and src/dispatch/policy.ts both import it.
 */ const TIERS = [
    'local',
    'national',
    'partner'
];
const NO_NEEDS = {
    assistanceDog: false,
    helpFindingVehicle: false
};
/** How many candidates a cascade fetches at a time: enough for minutes of offers, small in history. */ const CANDIDATE_PAGE_SIZE = 10;
/** What a page of candidates is read with (and claimed: its first free driver gets the card). */ function candidatePageQuery(s, b, policy, at) {
    return {
        ref: b.ref,
        round: s.round,
        tier: at.tier,
        job: s.job,
        exclude: at.exclude,
        limit: CANDIDATE_PAGE_SIZE,
        page: at.page,
        trip: {
            pickup: {
                lat: b.pickup.lat,
                lon: b.pickup.lon
            },
            pickupArea: b.pickupArea,
            durationS: b.durationS
        },
        offerTimeoutSeconds: policy.offerTimeoutSeconds
    };
}
function offerId(ref, round, driverId) {
    return `${ref}:${round}:${driverId}`;
}
function parseOfferId(id) {
    const m = /^([A-Z0-9-]+):(\d+):(.+)$/.exec(id);
    return m ? {
        ref: m[1],
        round: Number(m[2]),
        driverId: m[3]
    } : null;
}
/** A batch of amendments folded into the job, with the last route and fare any of them carries. */ function amendmentsFolded(job, batch) {
    let next = _object_spread({}, job);
    let route;
    let fare;
    for (const _ref of batch){
        const { route: r, fare: f } = _ref, fields = _object_without_properties(_ref, [
            "route",
            "fare"
        ]);
        next = _object_spread({}, next, Object.fromEntries(Object.entries(fields).filter(([, v])=>v !== undefined)));
        route = r !== null && r !== void 0 ? r : route;
        fare = f !== null && f !== void 0 ? f : fare;
    }
    return {
        job: next,
        route,
        fare
    };
}
/** The driver is on the way or further: the pickup and drop-off can no longer change. */ const DRIVER_ON_THE_WAY = [
    'en_route',
    'arrived',
    'on_board'
];
/**
 * The steps a trip really passes, from each status: forward only, and never from assigned straight
 * to completed. A driver already at the pickup when they accept may skip en_route.
 */ const NEXT_TRIP_STEPS = {
    assigned: [
        'en_route',
        'arrived'
    ],
    en_route: [
        'arrived'
    ],
    // Only a driver who is at the pickup can say the passenger did not come.
    arrived: [
        'on_board',
        'no_show'
    ],
    on_board: [
        'completed'
    ]
};
function isNextTripStep(from, to) {
    var _ref;
    var _NEXT_TRIP_STEPS_from;
    return (_ref = (_NEXT_TRIP_STEPS_from = NEXT_TRIP_STEPS[from]) === null || _NEXT_TRIP_STEPS_from === void 0 ? void 0 : _NEXT_TRIP_STEPS_from.includes(to)) !== null && _ref !== void 0 ? _ref : false;
}
/**
 * What the passenger is told, by the booking's workflow, at each turn (tellPassenger). The driver
 * assigned and the cancel are told by the activities that record them (assignDriver,
 * cancelBooking).
 */ /** Booked through a partner, operator or supplier: their customer hears from them, not from us. */ const PARTNER_SOURCES = new Set([
    'partner',
    'operator',
    'supplier'
]);
function passengerHearsFromUs(source) {
    return !PARTNER_SOURCES.has(source);
}
/** How a passenger paid the driver (the service itself never takes payment). */ const PAYMENT_METHODS = [
    'cash',
    'card',
    'payment_link',
    'bank_transfer',
    'account'
];
/**
 * The method of a settlement ops made with nothing due (a trip they ended, e.g. after suspending its
 * driver): a payment record of 0 pence, so the trip is settled once and for all. Only ops write it.
 */ const NOTHING_DUE = 'none';
const SETTLEMENT_METHODS = [
    ...PAYMENT_METHODS,
    NOTHING_DUE
];
/** The idempotency key of a booking's settlement: one record however often it is retried. */ function settlementKey(ref) {
    return `settlement:${ref}`;
}
/** The settlement an ops end records. */ function endTripSettlement(e) {
    const s = e.settlement;
    return 'nothingDue' in s ? {
        driverId: null,
        amountPence: 0,
        method: NOTHING_DUE,
        by: 'ops',
        note: `ended by ops: ${e.reason}; nothing due: ${s.nothingDue}`
    } : {
        driverId: null,
        amountPence: s.amountPence,
        method: s.method,
        by: 'ops',
        note: `ended by ops: ${e.reason}`
    };
}
/** ApplicationFailure types of booking updates; the HTTP layer maps them. */ const BookingFailure = {
    closed: 'BookingClosed',
    /** The reference is already another request's ride: the caller must allocate a fresh one. */ identityMismatch: 'BookingIdentityMismatch',
    /** A trip report from a driver the booking is not assigned to. */ notYourJob: 'NotYourJob',
    /** A trip report that is not the next step of the trip. */ invalidTripStep: 'InvalidTripStep',
    /** respondToOffer: the offer is no longer open and the job went to another driver. */ offerTaken: 'OfferTaken',
    /** respondToOffer: the offer is no longer open (timed out, withdrawn, booking closed). */ offerExpired: 'OfferExpired',
    /** respondToOffer: this driver already has the job (a repeated accept). */ offerAlreadyAccepted: 'OfferAlreadyAccepted',
    /** settleBooking: the trip has not completed, so there is nothing to settle yet. */ notCompleted: 'TripNotCompleted',
    /** settleBooking: an amount that cannot be a payment (negative, fractional, absurd). */ invalidPayment: 'InvalidPayment',
    /** assignFleetDriver: not an operator's booking, or not this operator's. */ notOperatorJob: 'NotOperatorJob',
    /** assignFleetDriver: a driver already has the job, or a job card is out waiting for an answer. */ alreadyAssigned: 'AlreadyAssigned',
    /** cancelBooking: the passenger is on board; only ops can end the trip (endTrip). */ tripInProgress: 'TripInProgress',
    /** endTrip: the passenger is not on board (and it is not a completed trip awaiting settlement). */ tripNotInProgress: 'TripNotInProgress',
    /** endTrip: the trip is already settled (by its driver, a provider or ops). */ alreadySettled: 'TripAlreadySettled',
    /** amendBooking: a new pickup or drop-off once the driver is on the way (DRIVER_ON_THE_WAY). */ driverOnTheWay: 'DriverOnTheWay',
    /** claimUpcomingJob: not a job the board offers (an operator's, awaiting the passenger's email, a card out, given back by this driver). */ notClaimable: 'NotClaimable',
    /** claimUpcomingJob: the claim found the driver busy then, or no longer fitting the job (seats, class, licence). */ driverDoesNotFit: 'DriverDoesNotFit'
};
// The booking's rules, read from its state alone: the booking workflow applies them (its validators
// refuse a message before it enters history), and they are unit-tested without one.
const isClosed = (s)=>TERMINAL_STATUSES.includes(s.status);
const isSuspended = (s, driverId)=>{
    var _ref;
    var _s_suspendedDriverIds;
    return driverId != null && ((_ref = (_s_suspendedDriverIds = s.suspendedDriverIds) === null || _s_suspendedDriverIds === void 0 ? void 0 : _s_suspendedDriverIds.includes(driverId)) !== null && _ref !== void 0 ? _ref : false);
};
/** The job is held by a suspended driver and must be taken off them, unless the passenger is on board. */ const holderSuspended = (s)=>isSuspended(s, s.driverId) && s.status !== 'on_board' && !isClosed(s);
/** The cards out now (`offer` is the first of a group, so a group of one reads the same). */ const openOffers = (s)=>{
    var _s_group;
    return (_s_group = s.group) !== null && _s_group !== void 0 ? _s_group : s.offer ? [
        s.offer
    ] : [];
};
const openOffer = (s, r)=>openOffers(s).find((o)=>o.offerId === r.offerId && o.driverId === r.driverId);
/** Someone has the job or its card out, or an exchange fleet holds it. */ const isTaken = (s)=>{
    var _s_exchange;
    return s.driverId !== null || s.offer !== null || Boolean((_s_exchange = s.exchange) === null || _s_exchange === void 0 ? void 0 : _s_exchange.fleetId);
};
/** The offer the driver holding the job accepted (a repeated board claim answers it again). */ function heldOfferId(s, driverId) {
    if (s.driverId !== driverId) return null;
    const accepted = s.candidates.findLast((c)=>c.driverId === driverId && c.outcome === 'accepted');
    return accepted ? offerId(s.ref, accepted.round, driverId) : null;
}
// Defaults for bookings whose policy does not say.
const CONFIRM_ASK_S = 60 * 60;
const CONFIRM_DEADLINE_S = 30 * 60;
const LATE_ACCEPT_WINDOW_S = 10 * 60;
/**
 * When the assigned driver who has not reported moving is let go: pickup plus the grace or, for a
 * driver who accepted late, the late-accept window after they accepted, whichever is later.
 */ function noShowTime(p, pickupAt, assignedAtMs) {
    var _p_lateAcceptWindowSeconds;
    const graceEnds = Date.parse(pickupAt) + p.noShowGraceSeconds * 1000;
    const windowEnds = assignedAtMs + ((_p_lateAcceptWindowSeconds = p.lateAcceptWindowSeconds) !== null && _p_lateAcceptWindowSeconds !== void 0 ? _p_lateAcceptWindowSeconds : LATE_ACCEPT_WINDOW_S) * 1000;
    return assignedAtMs > 0 ? Math.max(graceEnds, windowEnds) : graceEnds;
}
/** When a driver who accepted well ahead is asked to confirm, and when they are let go without it. */ function confirmTimes(p, pickupAt) {
    var _p_confirmAskSeconds, _p_confirmDeadlineSeconds;
    const pickupMs = Date.parse(pickupAt);
    return {
        askAt: pickupMs - ((_p_confirmAskSeconds = p.confirmAskSeconds) !== null && _p_confirmAskSeconds !== void 0 ? _p_confirmAskSeconds : CONFIRM_ASK_S) * 1000,
        deadline: pickupMs - ((_p_confirmDeadlineSeconds = p.confirmDeadlineSeconds) !== null && _p_confirmDeadlineSeconds !== void 0 ? _p_confirmDeadlineSeconds : CONFIRM_DEADLINE_S) * 1000
    };
}
const acceptedWellAhead = (p, pickupAt, assignedAtMs)=>assignedAtMs > 0 && assignedAtMs < confirmTimes(p, pickupAt).askAt;
/** When the cascade begins: the policy's lead time before pickup. */ const dispatchTime = (p, pickupAt)=>Date.parse(pickupAt) - p.dispatchLeadSeconds * 1000;
/** Past pickup, an unassigned booking stays cancellable (and an exchange fleet keeps its job) this long. */ const UNASSIGNED_GRACE_MS = 60 * 60000;
/** An unconfirmed booking waits until pickup, and at least half an hour, for the emailed link to be opened. */ const emailDeadline = (pickupAt, nowMs)=>nowMs + Math.max(Date.parse(pickupAt) - nowMs, 30 * 60000);
/** When a card out since `outAtMs` is closed: the full window once opened, else the unseen cut (if any). */ const cardDeadline = (r, outAtMs, seen)=>outAtMs + (seen || r.unseenMs === null ? r.fullMs : r.unseenMs);
/** An exchange fleet, as the decision log lists it among the candidates. */ const fleetCandidate = (x)=>{
    var _ref, _x_fleetName;
    return {
        driverId: `exchange:${x.fleetId}`,
        driverName: (_ref = (_x_fleetName = x.fleetName) !== null && _x_fleetName !== void 0 ? _x_fleetName : x.fleetId) !== null && _ref !== void 0 ? _ref : '',
        distanceMeters: null
    };
};
/**
 * A booking nobody has taken is searched for until this long past its pickup time, then closed
 * (docs/dispatch.md "A booking nobody takes"): for a "now" booking, half an hour of a passenger's waiting.
 */ const SEARCH_PAST_PICKUP_MS = 30 * 60000;
/** From the pickup time the passenger is waiting: rounds come at most this far apart. */ const WAITING_RETRY_MAX_MS = 2 * 60000;
/** Drivers a later round does not ask again: those who dropped the job or declined it. */ const notToAskAgain = (s)=>[
        ...s.droppedDriverIds,
        ...s.candidates.filter((c)=>c.outcome === 'declined').map((c)=>c.driverId)
    ];
/** When the search for a driver ends, for a booking with this pickup time. */ const searchEndsAt = (pickupAt)=>Date.parse(pickupAt) + SEARCH_PAST_PICKUP_MS;
/**
 * The wait before the next round once every tier is exhausted: doubling from the policy's base,
 * capped (closer together once the passenger is waiting), with one round at the pickup time and one
 * at the end of the search; null once the search is over.
 */ function backoffMs(p, exhaustedRounds, pickupAt, nowMs) {
    const pickupMs = Date.parse(pickupAt);
    const endsMs = searchEndsAt(pickupAt);
    if (nowMs >= endsMs) return null;
    const capMs = Math.min(p.maxRetrySeconds * 1000, nowMs >= pickupMs ? WAITING_RETRY_MAX_MS : Infinity);
    const waitMs = Math.min(p.retryBaseSeconds * 1000 * 2 ** (exhaustedRounds - 1), capMs);
    return Math.min(waitMs, nowMs < pickupMs ? pickupMs - nowMs : Infinity, endsMs - nowMs);
}
/** A round of the cascade: the booking's offer policy, or one driver at a time for the full window. */ function cascadeOfferRules(p) {
    var _p_offerUnseenSeconds, _p_offerGroupSize;
    const fullMs = p.offerTimeoutSeconds * 1000;
    const unseen = (_p_offerUnseenSeconds = p.offerUnseenSeconds) !== null && _p_offerUnseenSeconds !== void 0 ? _p_offerUnseenSeconds : p.offerGroupSize !== undefined ? p.offerTimeoutSeconds : undefined;
    return {
        size: Math.max(1, Math.floor((_p_offerGroupSize = p.offerGroupSize) !== null && _p_offerGroupSize !== void 0 ? _p_offerGroupSize : 1)),
        unseenMs: unseen === undefined ? null : Math.min(fullMs, unseen * 1000),
        fullMs
    };
}
/** A driver someone named (ops, an operator): they alone, for the full window. */ const namedOfferRules = (p)=>({
        size: 1,
        unseenMs: null,
        fullMs: p.offerTimeoutSeconds * 1000
    });
/** Far above any taxi fare: a typo in the amount, not a payment. */ const MAX_SETTLEMENT_PENCE = 1000000;
const no = (message, type)=>({
        message,
        type
    });
const closedRefusal = (s)=>no(`booking ${s.ref} is ${s.status}`, BookingFailure.closed);
const beingCancelled = (s)=>no(`booking ${s.ref} is being cancelled`, BookingFailure.closed);
/**
 * A random reference can, however rarely, already name another request's ride: joining it would
 * hand a stranger someone else's booking.
 */ function createdRefusal(s, created) {
    if (!(created === null || created === void 0 ? void 0 : created.identity) || !s.identity || created.identity === s.identity) return null;
    return no(`booking ${s.ref} was made for another request`, BookingFailure.identityMismatch);
}
/** A stale click (an old card, a job already gone) is answered without entering history. */ function offerAnswerRefusal(s, r) {
    if (openOffer(s, r)) return null;
    if (s.driverId === r.driverId) return no(`driver ${r.driverId} already has booking ${s.ref}`, BookingFailure.offerAlreadyAccepted);
    if (s.driverId !== null) return no(`booking ${s.ref} went to another driver`, BookingFailure.offerTaken);
    return no(`offer ${r.offerId} is no longer open`, BookingFailure.offerExpired);
}
/** Whoever asks: a trip under way is ended by ops (endTrip), never cancelled into "nothing due". */ function cancelRefusal(s, _c, q) {
    if (s.status === 'completed' || s.status === 'no_show') return no(`booking ${s.ref} is ${s.status}`, BookingFailure.closed);
    if (s.status !== 'on_board' && !q.reported.includes('on_board')) return null;
    return no(`booking ${s.ref}: the passenger is on board, the trip cannot be cancelled`, BookingFailure.tripInProgress);
}
/** A new pickup or drop-off only while no driver is on the way (a report not yet acted on counts). */ function amendRefusal(s, a, q) {
    if (isClosed(s)) return closedRefusal(s);
    const onTheWay = DRIVER_ON_THE_WAY.includes(s.status) || q.reported.some((p)=>p !== 'no_show');
    if (!a.route || !onTheWay) return null;
    return no(`booking ${s.ref} is ${s.status}: the driver is on the way, the pickup and drop-off cannot change`, BookingFailure.driverOnTheWay);
}
/** An operator names a driver of its own fleet for one of its jobs nobody holds. */ function fleetPickRefusal(s, pick, q) {
    if (!q.operatorId || pick.operatorId !== q.operatorId) return no(`booking ${s.ref} is not this operator's job`, BookingFailure.notOperatorJob);
    if (isClosed(s)) return closedRefusal(s);
    if (s.driverId === null && s.offer === null && !q.fleetPicking) return null;
    return no(`booking ${s.ref} already has a driver or an open job card`, BookingFailure.alreadyAssigned);
}
/** Ops name a driver for a booking nobody holds (never an operator's job). */ function opsPickRefusal(s, pick, q) {
    if (isClosed(s)) return closedRefusal(s);
    if (q.operatorId) return no(`booking ${s.ref} is an operator's job: its operator picks the driver`, BookingFailure.notOperatorJob);
    if (q.cancelling) return beingCancelled(s);
    if (s.driverId !== null || q.opsPicking) return no(`booking ${s.ref} already has a driver (take the job off them first) or a driver named for it`, BookingFailure.alreadyAssigned);
    return pick.driverId ? null : no('name a driver', BookingFailure.notYourJob);
}
const takenRefusal = (s)=>no(`booking ${s.ref} has already been taken by another driver`, BookingFailure.alreadyAssigned);
/** A driver takes the job from the upcoming-jobs board: refused what is plainly not theirs. */ function boardClaimRefusal(s, c, q) {
    var _s_exchange;
    const notClaimable = (why)=>no(`booking ${s.ref} ${why}`, BookingFailure.notClaimable);
    if (isClosed(s)) return closedRefusal(s);
    if (heldOfferId(s, c.driverId)) return null;
    if (q.cancelling) return beingCancelled(s);
    if (s.driverId !== null || ((_s_exchange = s.exchange) === null || _s_exchange === void 0 ? void 0 : _s_exchange.fleetId) || q.claimants.some((d)=>d !== c.driverId)) return takenRefusal(s);
    if (q.operatorId) return notClaimable("is an operator's job: its operator picks the driver");
    if (!q.emailConfirmed) return notClaimable('is waiting for the passenger to confirm it');
    if (s.offer !== null) return notClaimable('is being offered to a driver right now');
    if (s.droppedDriverIds.includes(c.driverId)) return no(`you gave booking ${s.ref} back: it is not offered to you again`, BookingFailure.notClaimable);
    if (isSuspended(s, c.driverId)) return notClaimable('cannot go to a suspended driver');
    return c.driverId ? null : no('name a driver', BookingFailure.notYourJob);
}
/** The assigned driver's report: the next step of the trip (a repeat is a retry), a drop or a confirmation. */ function tripReportRefusal(s, r, q) {
    var _NEXT_TRIP_STEPS_s_status;
    const invalid = (why)=>no(why, BookingFailure.invalidTripStep);
    if (isClosed(s)) return closedRefusal(s);
    // A cancel accepted first wins: a boarding report after it must not leave a cancelled trip on board.
    if (q.cancelling) return beingCancelled(s);
    if (s.driverId !== r.driverId) return no(`booking ${s.ref} is not assigned to ${r.driverId}`, BookingFailure.notYourJob);
    if (r.event === 'drop') return s.status === 'on_board' ? invalid('the passenger is on board: finish the trip instead') : null;
    // Confirming is for a job held and not yet started; once on the way, the trip speaks for itself.
    if (r.event === 'confirm' && ![
        'assigned',
        'en_route',
        'arrived'
    ].includes(s.status)) return invalid(`booking ${s.ref} is ${s.status}: nothing to confirm`);
    if (r.event === 'confirm') return null;
    if (r.event === s.status || isNextTripStep(s.status, r.event)) return null;
    const next = ((_NEXT_TRIP_STEPS_s_status = NEXT_TRIP_STEPS[s.status]) !== null && _NEXT_TRIP_STEPS_s_status !== void 0 ? _NEXT_TRIP_STEPS_s_status : []).join(' or ') || 'nowhere';
    return invalid(`a trip goes ${s.status} -> ${next}, not ${r.event}`);
}
const paymentRefusal = (amountPence)=>Number.isInteger(amountPence) && amountPence >= 0 && amountPence <= MAX_SETTLEMENT_PENCE ? null : no(`amount ${amountPence} pence is not a payment`, BookingFailure.invalidPayment);
/** Only a completed trip is settled, by its own driver (or a provider, or ops); or one on board, by its driver. */ function settlementRefusal(s, input) {
    if (s.status !== 'completed' && !completedBySettling(s, input)) return no(`booking ${s.ref} is ${s.status}: only a completed trip is settled`, BookingFailure.notCompleted);
    if (input.by === 'driver' && input.driverId !== s.driverId) return no(`booking ${s.ref} is not assigned to ${input.driverId}`, BookingFailure.notYourJob);
    return paymentRefusal(input.amountPence);
}
/**
 * The driver confirming what was paid with the passenger still on board has finished the trip: one
 * tap completes and settles it (docs/drivers.md). Only the driver's own word does; a provider's
 * webhook for a link paid mid-trip settles nothing until the trip is reported completed.
 */ function completedBySettling(s, input) {
    return s.status === 'on_board' && input.by === 'driver' && input.driverId === s.driverId;
}
/** Ops end a trip with the passenger on board, or settle a completed one nobody has; a repeat is a retry. */ function endTripRefusal(s, e, q) {
    if (s.ended != null) return null;
    const awaitingSettlement = s.status === 'completed' && s.payment == null && !q.settlementSent;
    if (s.status === 'completed' && !awaitingSettlement) return no(`booking ${s.ref} is already settled`, BookingFailure.alreadySettled);
    if (s.status !== 'on_board' && !awaitingSettlement) return no(`booking ${s.ref} is ${s.status}: only a trip with the passenger on board is ended`, BookingFailure.tripNotInProgress);
    return 'nothingDue' in e.settlement ? null : paymentRefusal(e.settlement.amountPence);
}
/** The ApplicationFailure type of a fleet that could not be reached (retried). */ const EXCHANGE_FAILURE = 'ExchangeFleetUnavailable';
/** The status a new booking starts in (the workflow and the start request agree on it). */ function initialStatus(input, nowMs) {
    if (input.awaitEmailConfirmation) return 'awaiting_confirmation';
    const dispatchAt = Date.parse(input.job.pickupAt) - input.policy.dispatchLeadSeconds * 1000;
    return dispatchAt <= nowMs ? 'dispatching' : 'scheduled';
}
const EXCHANGE_WITH_DRIVER = [
    'assigned',
    'en_route',
    'arrived',
    'on_board'
];
/** The fleet's statuses that are steps of a trip: ours takes the same name. */ const FLEET_TRIP_STATUSES = [
    ...EXCHANGE_WITH_DRIVER,
    'completed',
    'no_show'
];
/**
 * Our status for the fleet's latest (null: unchanged). A trip step is ours too; anything else (its
 * driver gave the job back, it is looking again) is "offered" to the fleet once more, and leaves us
 * as we were before it found a driver.
 */ function statusFromFleet(remote, ours) {
    const trip = FLEET_TRIP_STATUSES.includes(remote);
    const status = trip ? remote : EXCHANGE_WITH_DRIVER.includes(ours) ? 'offered' : null;
    return {
        status,
        trip
    };
}
/** Our status while a fleet holds the job, by its last word: with a driver, or still offered to it. */ function statusHeldByFleet(x) {
    var _x_remoteStatus;
    const last = (_x_remoteStatus = x.remoteStatus) !== null && _x_remoteStatus !== void 0 ? _x_remoteStatus : '';
    return EXCHANGE_WITH_DRIVER.includes(last) ? last : 'offered';
}
/** What the fleet was sent, as a fingerprint: the job, and the route and fare an amendment may change. */ function exchangeJobSent(s) {
    var _ref, _ref1;
    const { job: j, pickup, dropoff, fare } = s;
    const fields = [
        j.pickupAt,
        j.passengers,
        j.vehicleType,
        j.wheelchair,
        j.notes
    ];
    return JSON.stringify([
        ...fields,
        (_ref = pickup === null || pickup === void 0 ? void 0 : pickup.label) !== null && _ref !== void 0 ? _ref : null,
        (_ref1 = dropoff === null || dropoff === void 0 ? void 0 : dropoff.label) !== null && _ref1 !== void 0 ? _ref1 : null,
        fare !== null && fare !== void 0 ? fare : null
    ]);
}
/** An exchange state with no fleet holding the job. */ const NO_EXCHANGE = {
    fleetId: null,
    fleetName: null,
    tried: [],
    sequence: 0,
    remoteStatus: null,
    driver: null,
    pending: false,
    sent: null
};
/**
 * A booking's reference, as the HTTP contract and the pages accept it: "TX" and 10 Crockford base32
 * characters (src/bookings/identity.ts makes them); references made before random ones were 8
 * characters, and both stay valid.
 */ const BOOKING_REF_PATTERN = /^TX[0-9A-Z]{8,10}$/;
/** Statuses in which a driver is committed to the job (dispatch counts them as the driver's other jobs). */ const ACTIVE_STATUSES = [
    'assigned',
    'en_route',
    'arrived',
    'on_board'
];


/***/ },

/***/ "./src/model/drivers.ts"
/*!******************************!*\
  !*** ./src/model/drivers.ts ***!
  \******************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   LICENCE_REMINDER_DAYS: () => (/* binding */ LICENCE_REMINDER_DAYS),
/* harmony export */   LICENCE_WARNING_DAYS: () => (/* binding */ LICENCE_WARNING_DAYS),
/* harmony export */   firstExpiry: () => (/* binding */ firstExpiry),
/* harmony export */   reminderAt: () => (/* binding */ reminderAt),
/* harmony export */   warningAt: () => (/* binding */ warningAt)
/* harmony export */ });
// A driver's licences as the business states them: the dates on record and when the driver is
// told before the first runs out. (Offers stop by themselves at expiry: dispatch skips a driver whose
// licence is out of date.) Shared by src/, activities/ and workflows/ (whose contract is
// workflows/drivers/definitions.ts), so it stays pure: no Node built-ins, no I/O, nothing imported
// from outside src/model/.
/** How long before expiry the driver is told. */ const LICENCE_REMINDER_DAYS = 14;
/** And told again, the last warning before offers stop (0.4.0). */ const LICENCE_WARNING_DAYS = 3;
/** The first of the two expiry dates, as the day a reminder is about. */ function firstExpiry(d) {
    const dates = [
        d.driverLicenceExpires,
        d.vehicleLicenceExpires
    ].filter((x)=>x !== null);
    return dates.length === 0 ? null : dates.sort()[0];
}
/** The instant to remind at: 09:00 UTC, a fortnight before the expiry day. */ function reminderAt(expires) {
    return Date.parse(`${expires}T09:00:00Z`) - LICENCE_REMINDER_DAYS * 86400000;
}
/** The instant of the last warning: 09:00 UTC, 3 days before the expiry day. */ function warningAt(expires) {
    return Date.parse(`${expires}T09:00:00Z`) - LICENCE_WARNING_DAYS * 86400000;
}


/***/ },

/***/ "./src/model/partners.ts"
/*!*******************************!*\
  !*** ./src/model/partners.ts ***!
  \*******************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CANCELLED_RETRY_MESSAGE: () => (/* binding */ CANCELLED_RETRY_MESSAGE),
/* harmony export */   DEFAULT_DELIVERY_POLICY: () => (/* binding */ DEFAULT_DELIVERY_POLICY),
/* harmony export */   JOB_ACTIONS: () => (/* binding */ JOB_ACTIONS),
/* harmony export */   JOB_OUTCOME_CODES: () => (/* binding */ JOB_OUTCOME_CODES)
/* harmony export */ });
// Partners' jobs and the status events sent back to them, as the business states them (docs/partners.md):
// what a sender may do with a job reference, the stable codes of what happened to it, and how
// long its events are retried. Shared by src/, activities/ and workflows/ (whose contracts are
// workflows/partners/job-definitions.ts and delivery-definitions.ts), so it stays pure: no Node
// built-ins, no I/O, nothing imported from outside src/model/.
const JOB_ACTIONS = [
    'new',
    'amend',
    'cancel'
];
/**
 * Stable codes of what happened to a job (published in the OpenAPI document).
 * Accepted: created, duplicate, amended, amendment_held, cancelled, cancel_held, already_cancelled
 * (also a cancelled job's own new sent again), cancelled_before_new, rebooked (a cancelled job's
 * reference sent as a new with different details: a new booking). Rejected: job_ref_conflict,
 * job_cancelled, amend_too_late, amend_driver_on_the_way (a new pickup or drop-off once the driver is
 * on the way), amend_route_change (a changed pickup, drop-off or fare, refused by release 0.1.0's
 * workers: kept for the answers they give during a rolling deploy), job_completed, trip_in_progress (a cancel with the passenger on board),
 * daily_limit_reached (plus the intake's own: invalid_job and the pricing codes, which never reach
 * the workflow).
 */ const JOB_OUTCOME_CODES = [
    'created',
    'duplicate',
    'amended',
    'amendment_held',
    'cancelled',
    'cancel_held',
    'already_cancelled',
    'cancelled_before_new',
    'job_ref_conflict',
    'job_cancelled',
    'amend_too_late',
    'amend_route_change',
    'job_completed',
    'trip_in_progress',
    'daily_limit_reached',
    'rebooked',
    'amend_driver_on_the_way'
];
/** A cancelled job's own new (or an amendment it had) sent again: a retry, which changes nothing. */ const CANCELLED_RETRY_MESSAGE = 'This job was cancelled and this is the same job sent again: its booking stays cancelled. To book it again, send it as a new job with a new jobRef or with the details changed.';
/**
 * 10 s, 20 s, 40 s ... then every 30 minutes, for 72 hours: about 150 attempts, so a receiver down
 * for a weekend still gets everything once it is back.
 */ const DEFAULT_DELIVERY_POLICY = {
    initialRetrySeconds: 10,
    maxRetrySeconds: 30 * 60,
    giveUpAfterSeconds: 72 * 3600,
    idleSeconds: 10 * 60
};


/***/ },

/***/ "./workflows/activities.ts"
/*!*********************************!*\
  !*** ./workflows/activities.ts ***!
  \*********************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   acts: () => (/* binding */ acts),
/* harmony export */   award: () => (/* binding */ award),
/* harmony export */   db: () => (/* binding */ db)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
// The two ways workflows call activities, declared once for every workflow.

/**
 * Work that leaves the service or takes a while (messages, billing runs, alerts): full activities,
 * visible in history and retried by the server.
 */ const acts = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
    startToCloseTimeout: '30 seconds',
    retry: {
        initialInterval: '1 second',
        maximumInterval: '1 minute'
    }
});
/**
 * Short Postgres reads and writes: local activities, run inside the workflow task with no server
 * round trip per step.
 */ const db = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyLocalActivities)({
    startToCloseTimeout: '10 seconds',
    retry: {
        initialInterval: '500 ms',
        maximumInterval: '30 seconds'
    }
});
/**
 * A job awarded to a driver (assignDriver: the acceptance recorded, the other cards withdrawn, the
 * texts owed to the winner, the other drivers and the passenger): a local activity in the workflow
 * task that took the acceptance, so no server round trip stands between the driver's tap and its
 * answer and the award costs the booking no workflow task of its own. It sends messages, so it gets
 * the time a provider may take; each message has its outbox key, so a retry sends nothing twice.
 */ const award = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyLocalActivities)({
    startToCloseTimeout: '30 seconds',
    retry: {
        initialInterval: '1 second',
        maximumInterval: '1 minute'
    }
});


/***/ },

/***/ "./workflows/billing/collection.ts"
/*!*****************************************!*\
  !*** ./workflows/billing/collection.ts ***!
  \*****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   invoiceCollectionWorkflow: () => (/* binding */ invoiceCollectionWorkflow),
/* harmony export */   startInvoiceCollection: () => (/* binding */ startInvoiceCollection)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(_temporalio_common__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _src_model_billing_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/billing.js */ "./src/model/billing.ts");
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ./definitions.js */ "./workflows/billing/definitions.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
;




const DAY_MS = 86400000;
/** One invoice being collected: what the query reports, and the payment the signal brought. */ class Collection {
    state() {
        var _ref;
        var _this_payment;
        return _object_spread_props(_object_spread({}, this.input), {
            status: this.status,
            remindersSent: this.remindersSent,
            paidBy: (_ref = (_this_payment = this.payment) === null || _this_payment === void 0 ? void 0 : _this_payment.eventId) !== null && _ref !== void 0 ? _ref : null,
            lastFailure: this.lastFailure
        });
    }
    /** The invoicePayment signal: the first event that pays the invoice in full is its payment. */ paymentEvent(e) {
        if (this.payment) return;
        if (e.outcome === 'succeeded' && e.amountPence >= this.input.totalPence) this.payment = e;
        else {
            this.lastFailure = e.eventId;
            _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('invoice payment did not settle it', _object_spread_props(_object_spread({}, this.input), {
                event: e.eventId,
                outcome: e.outcome,
                amountPence: e.amountPence
            }));
        }
    }
    /** Waits until `days` after opening for a payment; true when one arrived. */ async paidWithin(days) {
        const left = this.opened + days * DAY_MS - Date.now();
        if (this.payment || left <= 0) return this.payment !== null;
        return (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>this.payment !== null, left);
    }
    constructor(input){
        _define_property(this, "input", void 0);
        _define_property(this, "status", void 0);
        _define_property(this, "remindersSent", void 0);
        _define_property(this, "payment", void 0);
        _define_property(this, "lastFailure", void 0);
        _define_property(this, "opened", void 0);
        this.input = input;
        this.status = 'unpaid';
        this.remindersSent = 0;
        this.payment = null;
        this.lastFailure = null;
        this.opened = Date.now();
    }
}
/**
 * Collects one invoice: asks the payment provider for a pay link (texted to the driver), then waits
 * for the provider's signed webhook, which the API passes on as the invoicePayment signal. Unpaid,
 * the driver is reminded every few days (capped), and after COLLECTION_POLICY.overdueAfterDays the
 * invoice is overdue and ops are alerted. The first successful payment marks it paid, once: later
 * events (a replay the API let through, the provider's second event for the same payment) change
 * nothing. Every step's activity is idempotent by the invoice, so a retry repeats nothing.
 */ async function invoiceCollectionWorkflow(input) {
    const invoice = new Collection(input);
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_4__.invoiceCollectionStateQuery, ()=>invoice.state());
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_4__.invoicePaymentSignal, (e)=>invoice.paymentEvent(e));
    await _activities_js__WEBPACK_IMPORTED_MODULE_3__.acts.openInvoiceCollection(input);
    const paid = await remindUntilPaid(invoice) || await overdueUntilPaid(invoice);
    if (paid && invoice.payment) {
        await _activities_js__WEBPACK_IMPORTED_MODULE_3__.acts.markInvoicePaid(_object_spread_props(_object_spread({}, input), {
            eventId: invoice.payment.eventId,
            amountPence: invoice.payment.amountPence,
            providerRef: invoice.payment.providerRef
        }));
        invoice.status = 'paid';
    }
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
    return invoice.state();
}
/** A reminder every few days while unpaid, the last before the invoice is overdue; true once paid. */ async function remindUntilPaid(invoice) {
    const { reminderEveryDays, maxReminders, overdueAfterDays } = _src_model_billing_js__WEBPACK_IMPORTED_MODULE_2__.COLLECTION_POLICY;
    for(let n = 1; n <= maxReminders && n * reminderEveryDays < overdueAfterDays; n++){
        if (await invoice.paidWithin(n * reminderEveryDays)) return true;
        await _activities_js__WEBPACK_IMPORTED_MODULE_3__.acts.remindInvoice(_object_spread_props(_object_spread({}, invoice.input), {
            reminder: n
        }));
        invoice.remindersSent = n;
    }
    return false;
}
/** Unpaid when it falls due: overdue (ops are alerted), then followed a while longer; true once paid. */ async function overdueUntilPaid(invoice) {
    const { overdueAfterDays, followForDays } = _src_model_billing_js__WEBPACK_IMPORTED_MODULE_2__.COLLECTION_POLICY;
    if (await invoice.paidWithin(overdueAfterDays)) return true;
    await _activities_js__WEBPACK_IMPORTED_MODULE_3__.acts.markInvoiceOverdue(invoice.input);
    invoice.status = 'overdue';
    return invoice.paidWithin(followForDays);
}
/**
 * Starts an invoice's collection, a workflow of its own that outlives its starter (ABANDON): it
 * follows the invoice up for weeks while billing goes on. A collection already started (the week
 * replayed after a reset) is the same collection.
 */ async function startInvoiceCollection(input) {
    try {
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.startChild)(invoiceCollectionWorkflow, {
            workflowId: (0,_definitions_js__WEBPACK_IMPORTED_MODULE_4__.invoiceCollectionWorkflowId)(input),
            args: [
                input
            ],
            parentClosePolicy: _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ParentClosePolicy.ABANDON,
            workflowIdReusePolicy: _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.WorkflowIdReusePolicy.REJECT_DUPLICATE
        });
    } catch (err) {
        if (!(err instanceof _temporalio_common__WEBPACK_IMPORTED_MODULE_1__.WorkflowExecutionAlreadyStartedError)) throw err;
    }
}


/***/ },

/***/ "./workflows/billing/definitions.ts"
/*!******************************************!*\
  !*** ./workflows/billing/definitions.ts ***!
  \******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BILL_WEEK_WORKFLOW_PREFIX: () => (/* binding */ BILL_WEEK_WORKFLOW_PREFIX),
/* harmony export */   COLLECT_INVOICES_PATCH: () => (/* binding */ COLLECT_INVOICES_PATCH),
/* harmony export */   INVOICE_COLLECTION_PREFIX: () => (/* binding */ INVOICE_COLLECTION_PREFIX),
/* harmony export */   PARTNER_BILLING_WORKFLOW_ID: () => (/* binding */ PARTNER_BILLING_WORKFLOW_ID),
/* harmony export */   SUBSCRIPTION_WORKFLOW_PREFIX: () => (/* binding */ SUBSCRIPTION_WORKFLOW_PREFIX),
/* harmony export */   SubscriptionFailure: () => (/* binding */ SubscriptionFailure),
/* harmony export */   billWeekWorkflowId: () => (/* binding */ billWeekWorkflowId),
/* harmony export */   cancelSubscriptionSignal: () => (/* binding */ cancelSubscriptionSignal),
/* harmony export */   extendTrialUpdate: () => (/* binding */ extendTrialUpdate),
/* harmony export */   invoiceCollectionStateQuery: () => (/* binding */ invoiceCollectionStateQuery),
/* harmony export */   invoiceCollectionWorkflowId: () => (/* binding */ invoiceCollectionWorkflowId),
/* harmony export */   invoicePaymentSignal: () => (/* binding */ invoicePaymentSignal),
/* harmony export */   subscriptionStateQuery: () => (/* binding */ subscriptionStateQuery),
/* harmony export */   subscriptionWorkflowId: () => (/* binding */ subscriptionWorkflowId)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../../src/model/billing.js */ "./src/model/billing.ts");
// The billing workflows' Temporal contract: their ids, inputs, messages and failure types, which the
// application, the activities and the worker must agree on. What billing means (weeks, prices,
// invoices, collection policy) is src/model/billing.ts. Imported by workflow code, so it stays free
// of Node built-ins and I/O.


const SUBSCRIPTION_WORKFLOW_PREFIX = 'subscription:';
const BILL_WEEK_WORKFLOW_PREFIX = 'subscription-week:';
function subscriptionWorkflowId(driverId) {
    return `${SUBSCRIPTION_WORKFLOW_PREFIX}${driverId}`;
}
/** One id per driver and week (named by its Monday's London date): a week cannot be billed twice. */ function billWeekWorkflowId(driverId, weekStart) {
    return `${BILL_WEEK_WORKFLOW_PREFIX}${driverId}:${(0,_src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.londonDate)(Date.parse(weekStart))}`;
}
/** ApplicationFailure types the extendTrial update is refused with. */ const SubscriptionFailure = {
    trialEnded: 'TrialEnded',
    invalidExtension: 'InvalidTrialExtension',
    /** The extension would make the trial longer than MAX_TRIAL_DAYS in all. */ trialTooLong: 'TrialTooLong'
};
const subscriptionStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('subscriptionState');
const extendTrialUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineUpdate)('extendTrial');
/** The driver was removed: no further weeks are billed (a week already being billed completes). */ const cancelSubscriptionSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineSignal)('cancelSubscription');
// Collecting an invoice (docs/billing.md, "Collection"). One workflow per invoice with something to
// collect, started by the week's billing run.
const INVOICE_COLLECTION_PREFIX = 'invoice-collection:';
/** billWeekWorkflow starts the invoice's collection (added in 0.4.0). */ const COLLECT_INVOICES_PATCH = 'collect-invoices';
/** invoice-collection:<driver|partner>:<id>:<Monday's London date>: one collection per invoice. */ function invoiceCollectionWorkflowId(k) {
    return `${INVOICE_COLLECTION_PREFIX}${k.account}:${k.accountId}:${(0,_src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.londonDate)(Date.parse(k.weekStart))}`;
}
const invoicePaymentSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineSignal)('invoicePayment');
const invoiceCollectionStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('invoiceCollectionState');
// Partners' weekly invoices (SMS pass-through for their jobs): one workflow bills every partner.
const PARTNER_BILLING_WORKFLOW_ID = 'partner-billing';


/***/ },

/***/ "./workflows/billing/partner-billing.ts"
/*!**********************************************!*\
  !*** ./workflows/billing/partner-billing.ts ***!
  \**********************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   partnerBillingWorkflow: () => (/* binding */ partnerBillingWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../../src/model/billing.js */ "./src/model/billing.ts");
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _collection_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./collection.js */ "./workflows/billing/collection.ts");




/** Weeks billed per run before continuing as new. */ const WEEKS_PER_RUN = 8;
/**
 * Bills every partner's week at its end (Monday 00:00 Europe/London): one workflow,
 * `partner-billing`, for all partners, since a partner's charge (texts about its jobs) has no
 * trial or approval date of its own to time. Each invoice owing at least MIN_COLLECTION_PENCE is
 * collected by its own invoiceCollectionWorkflow, as a driver's is. Started by every worker (the
 * first start wins), like the ops watch.
 */ async function partnerBillingWorkflow(input) {
    let weekStart = input.nextWeekStart ? Date.parse(input.nextWeekStart) : (0,_src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.weekStartOf)(Date.now());
    for(let billed = 0; billed < WEEKS_PER_RUN; billed++){
        const weekEnd = (0,_src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.nextWeekStart)(weekStart);
        if (weekEnd > Date.now()) await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>false, weekEnd - Date.now());
        const week = {
            weekStart: new Date(weekStart).toISOString(),
            weekEnd: new Date(weekEnd).toISOString()
        };
        for (const { partnerId, totalPence } of (await _activities_js__WEBPACK_IMPORTED_MODULE_2__.acts.billPartnersWeek(week))){
            if (totalPence < _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.MIN_COLLECTION_PENCE) continue;
            await (0,_collection_js__WEBPACK_IMPORTED_MODULE_3__.startInvoiceCollection)({
                account: 'partner',
                accountId: partnerId,
                weekStart: week.weekStart,
                totalPence
            });
        }
        weekStart = weekEnd;
    }
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
    return (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.continueAsNew)({
        nextWeekStart: new Date(weekStart).toISOString()
    });
}


/***/ },

/***/ "./workflows/billing/subscription.ts"
/*!*******************************************!*\
  !*** ./workflows/billing/subscription.ts ***!
  \*******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Subscription: () => (/* binding */ Subscription)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../../src/model/billing.js */ "./src/model/billing.ts");
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./definitions.js */ "./workflows/billing/definitions.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
// A driver's subscription as driverSubscriptionWorkflow keeps it: the trial and its extensions, the
// weeks billed, and the answers to the workflow's messages. Every Temporal command the workflow
// issues is still issued in the order it always was (the released histories replay it; see
// test/unit/workflows/replay.test.ts): these methods only name the steps.
;



const DAY_MS = 86400000;
class Subscription {
    trialEndsMs() {
        return this.approvedMs + (this.trialDays + this.extendedDays) * DAY_MS;
    }
    state() {
        const { driverId, tier, approvedAt } = this.input;
        return {
            driverId,
            tier,
            approvedAt,
            trialEndsAt: new Date(this.trialEndsMs()).toISOString(),
            trialDaysRemaining: this.status === 'trial' ? Math.max(0, Math.ceil((this.trialEndsMs() - Date.now()) / DAY_MS)) : 0,
            state: this.status,
            weeksBilled: this.weeksBilled,
            lastWeekBilled: this.lastWeekBilled
        };
    }
    /** The subscription row in Postgres, set to what this workflow holds. */ save() {
        const { driverId, tier, approvedAt } = this.input;
        return _activities_js__WEBPACK_IMPORTED_MODULE_2__.acts.saveSubscription({
            driverId,
            tier,
            approvedAt,
            trialDays: this.trialDays,
            trialExtendedDays: this.extendedDays,
            state: this.status
        });
    }
    /** Throws the ApplicationFailure an extension is refused with, if it is. */ refuseExtension(e) {
        if (this.status !== 'trial' || Date.now() >= this.trialEndsMs()) {
            throw _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure.nonRetryable(`the trial of driver ${this.driverId} ${this.status === 'cancelled' ? 'was cancelled' : `ended at ${new Date(this.trialEndsMs()).toISOString()}`}`, _definitions_js__WEBPACK_IMPORTED_MODULE_3__.SubscriptionFailure.trialEnded);
        }
        const bad = !Number.isInteger(e.days) || e.days < 1 || e.days > _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.MAX_EXTENSION_DAYS ? `days must be a whole number from 1 to ${_src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.MAX_EXTENSION_DAYS}` : typeof e.by !== 'string' || e.by.trim() === '' ? 'by must name the administrator' : typeof e.reason !== 'string' || e.reason.trim() === '' ? 'a reason is required' : null;
        if (bad) throw _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure.nonRetryable(bad, _definitions_js__WEBPACK_IMPORTED_MODULE_3__.SubscriptionFailure.invalidExtension);
        const total = this.trialDays + this.extendedDays;
        if (total + e.days > _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.MAX_TRIAL_DAYS) {
            throw _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure.nonRetryable(`a trial is at most ${_src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.MAX_TRIAL_DAYS} days in all; this one is ${total} days, so it can be extended by ${Math.max(0, _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.MAX_TRIAL_DAYS - total)} more at most`, _definitions_js__WEBPACK_IMPORTED_MODULE_3__.SubscriptionFailure.trialTooLong);
        }
    }
    /** The extendTrial update: the trial is longer from now on, and the extension is recorded once. */ async extendTrial(e) {
        // The validator (never run on replay) refused most; checked again here against the state
        // this update finds, as two extensions accepted in one task both passed the validator.
        this.refuseExtension(e);
        // Moved synchronously, before the first await, so the trial timer is re-armed at once and a
        // second extension in the same task builds on this one.
        this.extendedDays += e.days;
        this.extensions += 1;
        await _activities_js__WEBPACK_IMPORTED_MODULE_2__.acts.recordTrialExtension({
            id: `${this.driverId}:${this.extensions}`,
            driverId: this.driverId,
            days: e.days,
            by: e.by.trim(),
            reason: e.reason.trim(),
            totalExtendedDays: this.extendedDays,
            at: new Date().toISOString()
        });
        return this.state();
    }
    /** The driver was removed: no further weeks are billed. */ cancel(reason) {
        if (this.status === 'cancelled') return;
        _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.info('subscription cancelled', {
            driverId: this.driverId,
            reason
        });
        this.status = 'cancelled';
    }
    /** Waits out the free trial (re-armed by every extension); the subscription is then active unless cancelled. */ async waitOutTrial() {
        while(this.status === 'trial' && Date.now() < this.trialEndsMs()){
            const seen = this.extensions;
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>this.status !== 'trial' || this.extensions !== seen, this.trialEndsMs() - Date.now());
        }
        if (this.status === 'trial') {
            this.status = 'active';
            await this.save();
        }
    }
    /** Waits for a week's end; false when the subscription was cancelled before it. */ async activeAt(weekEnd) {
        if (weekEnd <= Date.now()) return true;
        return !await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>this.status !== 'active', weekEnd - Date.now());
    }
    /** What the next run is handed when this one continues as new. */ carried(nextWeekStart) {
        return {
            extendedDays: this.extendedDays,
            extensions: this.extensions,
            weeksBilled: this.weeksBilled,
            lastWeekBilled: this.lastWeekBilled,
            nextWeekStart: new Date(nextWeekStart).toISOString()
        };
    }
    constructor(input){
        var _ref, _ref1, _ref2, _ref3;
        _define_property(this, "input", void 0);
        _define_property(this, "driverId", void 0);
        _define_property(this, "trialDays", void 0);
        _define_property(this, "extendedDays", void 0);
        _define_property(this, "extensions", void 0);
        _define_property(this, "weeksBilled", void 0);
        _define_property(this, "lastWeekBilled", void 0);
        _define_property(this, "status", void 0);
        _define_property(this, "approvedMs", void 0);
        this.input = input;
        const { driverId, tier, approvedAt, carried } = input;
        this.driverId = driverId;
        this.approvedMs = Date.parse(approvedAt);
        this.trialDays = _src_model_billing_js__WEBPACK_IMPORTED_MODULE_1__.TRIAL_DAYS[tier];
        this.extendedDays = (_ref = carried === null || carried === void 0 ? void 0 : carried.extendedDays) !== null && _ref !== void 0 ? _ref : 0;
        this.extensions = (_ref1 = carried === null || carried === void 0 ? void 0 : carried.extensions) !== null && _ref1 !== void 0 ? _ref1 : 0;
        this.weeksBilled = (_ref2 = carried === null || carried === void 0 ? void 0 : carried.weeksBilled) !== null && _ref2 !== void 0 ? _ref2 : 0;
        this.lastWeekBilled = (_ref3 = carried === null || carried === void 0 ? void 0 : carried.lastWeekBilled) !== null && _ref3 !== void 0 ? _ref3 : null;
        // A run continued as new is past its trial by construction.
        this.status = carried || Date.now() >= this.trialEndsMs() ? 'active' : 'trial';
    }
}


/***/ },

/***/ "./workflows/billing/workflow.ts"
/*!***************************************!*\
  !*** ./workflows/billing/workflow.ts ***!
  \***************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   billWeekWorkflow: () => (/* binding */ billWeekWorkflow),
/* harmony export */   driverSubscriptionWorkflow: () => (/* binding */ driverSubscriptionWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(_temporalio_common__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _src_model_billing_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/billing.js */ "./src/model/billing.ts");
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _collection_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ./collection.js */ "./workflows/billing/collection.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(/*! ./definitions.js */ "./workflows/billing/definitions.ts");
/* harmony import */ var _subscription_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(/*! ./subscription.js */ "./workflows/billing/subscription.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
;






// Design: one long-running workflow per driver, `subscription:<driverId>`, rather than a weekly
// Schedule scanning all drivers. Each driver's trial end moves (an administrator extends it) and
// their first billed week depends on their own approval time, which a per-driver timer states
// directly; the driver's whole subscription is one place to query and to update; and a week's
// billing is a child workflow whose id, `subscription-week:<driverId>:<Monday>`, Temporal refuses
// to run twice once it has completed. The invoice insert is idempotent as well, so neither a
// retried activity nor a worker dying mid-run can charge a week twice. Continue-as-new every
// WEEKS_PER_RUN weeks keeps the history a few dozen events long for years of billing.
/** Weeks billed per run before continuing as new (each week is about ten history events). */ const WEEKS_PER_RUN = 8;
/** A week's billing run that failed outright (it retries its activity without limit, so rarely) is tried again after this. */ const FAILED_WEEK_RETRY_MS = 60 * 60000;
/** Bills one week for one driver; its workflow id makes it happen once per week. */ async function billWeekWorkflow(input) {
    return _activities_js__WEBPACK_IMPORTED_MODULE_3__.acts.billDriverWeek(input);
}
/**
 * A driver's subscription from approval: the free trial (90 days, 30 for partner-fleet drivers,
 * extendable through the extendTrial update), then one billing run per week from the first full
 * week after the trial, each run at the week's end (Monday 00:00 Europe/London). A driver whose
 * workflow starts after weeks have already ended (approved long ago, or a worker down over a
 * boundary) has those weeks billed at once, in order.
 */ async function driverSubscriptionWorkflow(input) {
    const sub = new _subscription_js__WEBPACK_IMPORTED_MODULE_6__.Subscription(input);
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_5__.subscriptionStateQuery, ()=>sub.state());
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_5__.extendTrialUpdate, (e)=>sub.extendTrial(e), {
        validator: (e)=>sub.refuseExtension(e)
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_5__.cancelSubscriptionSignal, ({ reason })=>sub.cancel(reason));
    if (!input.carried) await sub.save();
    await sub.waitOutTrial();
    let weekStart = input.carried ? Date.parse(input.carried.nextWeekStart) : (0,_src_model_billing_js__WEBPACK_IMPORTED_MODULE_2__.weekStartAtOrAfter)(sub.trialEndsMs());
    let billedThisRun = 0;
    while(sub.status === 'active'){
        const weekEnd = (0,_src_model_billing_js__WEBPACK_IMPORTED_MODULE_2__.nextWeekStart)(weekStart);
        if (!await sub.activeAt(weekEnd)) break;
        await billAndCollect(sub, weekStart, weekEnd);
        billedThisRun += 1;
        weekStart = weekEnd;
        if (sub.status === 'active' && (billedThisRun >= WEEKS_PER_RUN || (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.workflowInfo)().continueAsNewSuggested)) {
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
            const { driverId, tier, approvedAt } = input;
            return (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.continueAsNew)({
                driverId,
                tier,
                approvedAt,
                carried: sub.carried(weekStart)
            });
        }
    }
    await sub.save();
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
    return sub.state();
}
/**
 * Bills the week that just ended and, when it owes enough to collect, starts its collection. The
 * collection is started from this long-lived workflow rather than from the week's short billing
 * run, so a collection that ends reports to a parent that is usually still running.
 */ async function billAndCollect(sub, weekStart, weekEnd) {
    const invoice = await billWeek({
        driverId: sub.driverId,
        weekStart: new Date(weekStart).toISOString(),
        weekEnd: new Date(weekEnd).toISOString()
    });
    sub.lastWeekBilled = invoice;
    // 0.4.0: a billed week with something to collect starts its collection. Histories of 0.3.0 go
    // straight on to the next week's timer here.
    if ((0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(_definitions_js__WEBPACK_IMPORTED_MODULE_5__.COLLECT_INVOICES_PATCH) && invoice.totalPence >= _src_model_billing_js__WEBPACK_IMPORTED_MODULE_2__.MIN_COLLECTION_PENCE) {
        const { driverId, weekStart: invoiceWeek, totalPence } = invoice;
        await (0,_collection_js__WEBPACK_IMPORTED_MODULE_4__.startInvoiceCollection)({
            account: 'driver',
            accountId: driverId,
            weekStart: invoiceWeek,
            totalPence
        });
    }
    sub.weeksBilled += 1;
}
/**
 * Runs the week's billing child. A completed week's id cannot be started again
 * (ALLOW_DUPLICATE_FAILED_ONLY refuses it); one that failed or was terminated may be, since the
 * invoice's unique key already guarantees a single charge.
 */ async function billWeek(week) {
    for(;;){
        try {
            return await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.executeChild)(billWeekWorkflow, {
                workflowId: (0,_definitions_js__WEBPACK_IMPORTED_MODULE_5__.billWeekWorkflowId)(week.driverId, week.weekStart),
                args: [
                    week
                ],
                workflowIdReusePolicy: _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY
            });
        } catch (err) {
            var _err_cause;
            // The week's run exists already (an earlier run of this workflow started it before a reset,
            // or it is still running): it is billed or being billed. The same idempotent activity reads
            // its invoice back, and could only ever insert the one row.
            if (err instanceof _temporalio_common__WEBPACK_IMPORTED_MODULE_1__.WorkflowExecutionAlreadyStartedError) return _activities_js__WEBPACK_IMPORTED_MODULE_3__.acts.billDriverWeek(week);
            if (!(err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ChildWorkflowFailure)) throw err;
            _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('weekly billing run failed; trying the week again later', _object_spread_props(_object_spread({}, week), {
                error: String((_err_cause = err.cause) !== null && _err_cause !== void 0 ? _err_cause : err)
            }));
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.sleep)(FAILED_WEEK_RETRY_MS);
        }
    }
}


/***/ },

/***/ "./workflows/bookings/definitions.ts"
/*!*******************************************!*\
  !*** ./workflows/bookings/definitions.ts ***!
  \*******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BookingSearchAttributes: () => (/* binding */ BookingSearchAttributes),
/* harmony export */   amendBookingUpdate: () => (/* binding */ amendBookingUpdate),
/* harmony export */   assignFleetDriverUpdate: () => (/* binding */ assignFleetDriverUpdate),
/* harmony export */   bookingCreatedUpdate: () => (/* binding */ bookingCreatedUpdate),
/* harmony export */   bookingStateQuery: () => (/* binding */ bookingStateQuery),
/* harmony export */   bookingWorkflowId: () => (/* binding */ bookingWorkflowId),
/* harmony export */   cancelBookingUpdate: () => (/* binding */ cancelBookingUpdate),
/* harmony export */   claimUpcomingJobUpdate: () => (/* binding */ claimUpcomingJobUpdate),
/* harmony export */   driverDroppedSignal: () => (/* binding */ driverDroppedSignal),
/* harmony export */   driverSuspendedSignal: () => (/* binding */ driverSuspendedSignal),
/* harmony export */   emailConfirmedSignal: () => (/* binding */ emailConfirmedSignal),
/* harmony export */   endTripUpdate: () => (/* binding */ endTripUpdate),
/* harmony export */   exchangeStatusSignal: () => (/* binding */ exchangeStatusSignal),
/* harmony export */   initialSearchAttributes: () => (/* binding */ initialSearchAttributes),
/* harmony export */   initialStatus: () => (/* reexport safe */ _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.initialStatus),
/* harmony export */   offerSeenSignal: () => (/* binding */ offerSeenSignal),
/* harmony export */   offerToDriverUpdate: () => (/* binding */ offerToDriverUpdate),
/* harmony export */   reportTripUpdate: () => (/* binding */ reportTripUpdate),
/* harmony export */   respondToOfferUpdate: () => (/* binding */ respondToOfferUpdate),
/* harmony export */   settleBookingUpdate: () => (/* binding */ settleBookingUpdate),
/* harmony export */   tripProgressSignal: () => (/* binding */ tripProgressSignal)
/* harmony export */ });
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_common__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
// The booking workflow's Temporal contract, which the client (src/bookings/client.ts) and the worker
// must agree on; its vocabulary is src/model/bookings.ts. Imported by workflow code: no Node built-ins, no I/O.


/** A booking's workflow id is its reference, prefixed: one workflow per booking. */ const bookingWorkflowId = (ref)=>`booking:${ref}`;
/** The status a new booking starts in (the workflow and the start request agree on it). */ 
/**
 * Upserted on each status change, so ops can list in the Web UI, e.g.
 * `BookingStatus = "unassigned" AND BookingPickupAt < "2026-11-23T18:00:00Z"`. Registered by the worker at start.
 */ const BookingSearchAttributes = {
    status: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingStatus', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD),
    pickupAt: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingPickupAt', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.DATETIME),
    driver: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingDriverId', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD),
    source: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingSource', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD),
    partner: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingPartnerId', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD)
};
/** The search attributes a booking starts with: the start request carries them, so no upsert is needed. */ function initialSearchAttributes(input, status) {
    return [
        {
            key: BookingSearchAttributes.status,
            value: status
        },
        {
            key: BookingSearchAttributes.pickupAt,
            value: new Date(input.job.pickupAt)
        },
        {
            key: BookingSearchAttributes.source,
            value: input.booking.source
        },
        ...input.booking.partnerId ? [
            {
                key: BookingSearchAttributes.partner,
                value: input.booking.partnerId
            }
        ] : []
    ];
}
/**
 * Sent with update-with-start by every booking route, naming the request it is creating: returns
 * once the booking record exists, refused when the booking was made for another request.
 */ const bookingCreatedUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('bookingCreated');
const respondToOfferUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('respondToOffer');
const offerSeenSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('offerSeen');
const cancelBookingUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('cancelBooking');
const amendBookingUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('amendBooking');
const claimUpcomingJobUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('claimUpcomingJob');
const offerToDriverUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('offerToDriver');
const assignFleetDriverUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('assignFleetDriver');
/** The passenger opened the emailed confirmation link (a held v1 booking). */ const emailConfirmedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('emailConfirmed');
const driverDroppedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('driverDropped');
/**
 * Staff suspended this driver: sent to every booking with an open job card or an active job of theirs
 * (workflows/drivers/suspension.ts); the card is withdrawn and a job they hold is taken off them.
 * Idempotent. A trip with the passenger on board is left to finish; ops are told and end it (endTrip).
 */ const driverSuspendedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('driverSuspended');
const reportTripUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('reportTrip');
/** Superseded by reportTripUpdate (which can refuse); kept for clients of the earlier release. */ const tripProgressSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('tripProgress');
const bookingStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineQuery)('bookingState');
/** Settles a completed trip, once; answers the payment record. */ const settleBookingUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('settleBooking');
/**
 * Ops end a trip with the passenger on board (its driver suspended, their app broken), or a completed
 * trip nobody has settled: completed and settled as ops say, in one step.
 */ const endTripUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('endTrip');
/** Sent by the booking-status hook; a repeated or older event changes nothing. */ const exchangeStatusSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('exchangeStatus');


/***/ },

/***/ "./workflows/bookings/dispatch.ts"
/*!****************************************!*\
  !*** ./workflows/bookings/dispatch.ts ***!
  \****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   firstPageQuery: () => (/* binding */ firstPageQuery),
/* harmony export */   letFirstPageGo: () => (/* binding */ letFirstPageGo),
/* harmony export */   offerToNamedDriver: () => (/* binding */ offerToNamedDriver),
/* harmony export */   runRound: () => (/* binding */ runRound),
/* harmony export */   takeBoardClaim: () => (/* binding */ takeBoardClaim)
/* harmony export */ });
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
/* harmony import */ var _exchange_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./exchange.js */ "./workflows/bookings/exchange.ts");
/* harmony import */ var _offers_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./offers.js */ "./workflows/bookings/offers.ts");
/* harmony import */ var _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ../../src/model/booking-state.js */ "./src/model/booking-state.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// Finding a driver: a round goes through the tiers in order (local, national, partner fleets), a page
// of the nearest fitting drivers at a time, through the offer engine (offers.ts); a tier's cards are
// all settled before the next tier is asked. Then an exchange fleet may take the job (exchange.ts).
;




/** What a page of candidates is read with, and claimed for the group's free places. */ const pageQuery = (run, tier, page, offered, claimUpTo)=>_object_spread_props(_object_spread({}, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.candidatePageQuery(run.state, run.input.booking, run.policy, {
        tier,
        page,
        exclude: [
            ...offered
        ]
    })), {
        claimUpTo
    });
/** Round 1's first page, read and claimed for a whole group with the booking's record (and their cards sent). */ const firstPageQuery = (run)=>pageQuery(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.TIERS[0], 0, new Set(run.state.droppedDriverIds), _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.cascadeOfferRules(run.policy).size);
/** A first page overtaken (a cancel or an amendment came first): the drivers it holds are let go at once. */ async function letFirstPageGo(run, page) {
    run.firstPage = null;
    const reason = run.inbox.peek('cancel') ? 'cancelled' : 'amendment';
    for (const h of page.held){
        const candidate = page.candidates.find((c)=>c.driverId === h.driverId);
        if (!candidate) continue;
        await _activities_js__WEBPACK_IMPORTED_MODULE_0__.db.closeOffer({
            offerId: h.offerId,
            status: 'withdrawn'
        });
        run.record(_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.TIERS[0], candidate, 'withdrawn', reason);
    }
}
async function candidatePage(run, group, tier, page, offered) {
    const count = (p)=>run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.tierCounted(s, {
                round: s.round,
                tier,
                considered: p.considered,
                eligible: p.eligible
            }));
    if (run.firstPage && tier === _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.TIERS[0] && page === 0) {
        const p = run.firstPage;
        run.firstPage = null;
        count(p);
        return p;
    }
    const p = await _activities_js__WEBPACK_IMPORTED_MODULE_0__.db.claimFromCandidatePage(pageQuery(run, tier, page, offered, group.freePlaces()));
    if (page === 0) count(p);
    return p;
}
async function runRound(run) {
    var _run_state_suspendedDriverIds;
    if ((0,_exchange_js__WEBPACK_IMPORTED_MODULE_2__.heldByExchangeFleet)(run)) return (0,_exchange_js__WEBPACK_IMPORTED_MODULE_2__.followExchangeFleet)(run);
    // A round begun with the booking's record (its first page already claimed) is this one.
    if (!run.firstPage) run.move(_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.roundBegun);
    // Nobody who dropped or declined the job, or was suspended while offered it, is asked again.
    const offered = new Set([
        ..._src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.notToAskAgain(run.state),
        ...(_run_state_suspendedDriverIds = run.state.suspendedDriverIds) !== null && _run_state_suspendedDriverIds !== void 0 ? _run_state_suspendedDriverIds : []
    ]);
    await run.setStatus('dispatching');
    const group = new _offers_js__WEBPACK_IMPORTED_MODULE_3__.OfferGroup(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.cascadeOfferRules(run.policy));
    for (const tier of _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.TIERS){
        for(let page = 0;; page++){
            const p = await candidatePage(run, group, tier, page, offered);
            if (p.candidates.length === 0) break;
            const ended = await offerPage(run, group, tier, p, offered);
            if (ended) return ended;
        }
        const ended = await group.settle(true);
        if (ended) return ended;
    }
    return (0,_exchange_js__WEBPACK_IMPORTED_MODULE_2__.handToExchangeFleet)(run);
}
/**
 * Each candidate of a page offered in turn, as places in the group free up: first the drivers the page's
 * claim holds (their cards sent with it, on a first page), then one claim at a time.
 */ async function offerPage(run, group, tier, p, offered) {
    const busy = new Set(p.busy);
    const held = new Map(p.held.map((h)=>[
            h.driverId,
            h
        ]));
    for (const c of p.candidates){
        if (run.inbox.interrupted()) {
            // Drivers claimed with the page but not yet in the group are let go at once.
            for (const h of held.values())await _activities_js__WEBPACK_IMPORTED_MODULE_0__.db.closeOffer({
                offerId: h.offerId,
                status: 'withdrawn'
            });
            await group.withdrawAll();
            return 'interrupted';
        }
        const heldHere = held.get(c.driverId);
        held.delete(c.driverId);
        offered.add(c.driverId);
        const suspended = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.isSuspended(run.state, c.driverId);
        if (suspended || busy.has(c.driverId)) {
            // Suspended since the page was read: not asked (a card sent with the page's claim is withdrawn).
            if (heldHere) await _activities_js__WEBPACK_IMPORTED_MODULE_0__.db.closeOffer({
                offerId: heldHere.offerId,
                status: 'withdrawn'
            });
            run.record(tier, c, 'skipped', suspended ? 'driver_suspended' : 'busy');
            continue;
        }
        const member = heldHere ? {
            tier,
            candidate: c,
            offerId: heldHere.offerId,
            expiresAt: heldHere.expiresAt,
            cardSent: heldHere.card
        } : await claim(run, tier, c);
        if (!member) continue;
        await group.add(member);
        const ended = await group.settle(false);
        if (ended) return ended;
    }
    return null;
}
/** The driver's card claimed in Postgres: null (recorded busy) when another booking has them now. */ async function claim(run, tier, c) {
    const round = run.state.round;
    const id = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.offerId(run.ref, round, c.driverId);
    const expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
    const { claimed } = await _activities_js__WEBPACK_IMPORTED_MODULE_0__.db.openOffer({
        offerId: id,
        ref: run.ref,
        driverId: c.driverId,
        round,
        tier,
        expiresAt
    });
    if (claimed) return {
        tier,
        candidate: c,
        offerId: id,
        expiresAt
    };
    run.record(tier, c, 'skipped', 'busy');
    return null;
}
/**
 * A driver ops (or an operator, of its own fleet) named is offered the job alone, in a round of its own;
 * `served` answers whoever named them once the card is out, or could not be.
 */ async function offerToNamedDriver(run, pick, tier, served) {
    run.move(_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.roundBegun);
    const member = await claim(run, tier, {
        driverId: pick.driverId,
        driverName: pick.driverName,
        distanceMeters: null
    });
    const group = new _offers_js__WEBPACK_IMPORTED_MODULE_3__.OfferGroup(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.namedOfferRules(run.policy));
    if (member && await group.add(member, served)) await group.settle(true);
    served();
}
/** A driver took the job from the upcoming-jobs board: claimed under their row lock and accepted, with no card. */ async function takeBoardClaim(run, c) {
    if (_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.isTaken(run.state)) return {
        refused: 'taken'
    };
    run.move(_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.roundBegun);
    const round = run.state.round;
    const candidate = {
        driverId: c.driverId,
        driverName: c.driverName,
        distanceMeters: null
    };
    const id = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.offerId(run.ref, round, c.driverId);
    const claim = {
        ref: run.ref,
        driverId: c.driverId,
        offerId: id,
        round,
        job: run.state.job
    };
    const r = await _activities_js__WEBPACK_IMPORTED_MODULE_0__.db.claimUpcomingJob(_object_spread_props(_object_spread({}, claim), {
        durationS: run.input.booking.durationS
    }));
    if (!r.claimed) {
        run.record('local', candidate, 'skipped', 'board_claim_refused');
        return {
            refused: r.reason
        };
    }
    await _activities_js__WEBPACK_IMPORTED_MODULE_0__.award.assignDriver({
        ref: run.ref,
        driverId: c.driverId,
        offerId: id
    });
    run.assigned(c.driverId);
    run.record('local', candidate, 'accepted', 'claimed_from_board');
    return {
        offerId: id
    };
}


/***/ },

/***/ "./workflows/bookings/exchange.ts"
/*!****************************************!*\
  !*** ./workflows/bookings/exchange.ts ***!
  \****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   cancelExchangeJob: () => (/* binding */ cancelExchangeJob),
/* harmony export */   followExchangeFleet: () => (/* binding */ followExchangeFleet),
/* harmony export */   handToExchangeFleet: () => (/* binding */ handToExchangeFleet),
/* harmony export */   heldByExchangeFleet: () => (/* binding */ heldByExchangeFleet),
/* harmony export */   installExchangeHandlers: () => (/* binding */ installExchangeHandlers),
/* harmony export */   sendAmendmentToExchangeFleet: () => (/* binding */ sendAmendmentToExchangeFleet)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/definitions.ts");
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
/* harmony import */ var _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ../../src/model/booking-state.js */ "./src/model/booking-state.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// Exchange fleets (docs/exchange.md): when every tier has nobody left to ask, the job goes to an
// approved partner fleet running this API; the booking follows its status events (signalled by the
// booking-status hook) and sends it our amendments and cancel. A fleet that gives the job back is
// never asked again.
;




/** Handing a job over: a fleet that cannot take it within minutes is passed over. */ const handOver = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '3 minutes',
    retry: {
        initialInterval: '2 seconds',
        maximumInterval: '20 seconds'
    }
});
/** Amendments and cancels of a job a fleet holds: retried for an hour. */ const followUps = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '1 hour',
    retry: {
        initialInterval: '2 seconds',
        maximumInterval: '1 minute'
    }
});
/** The fleet's events, as the hook signals them: only the holding fleet's, only newer ones. */ function installExchangeHandlers(run) {
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_2__.exchangeStatusSignal, (e)=>{
        const x = run.state.exchange;
        if (!x || run.closed() || x.fleetId !== e.fleetId || e.sequence <= x.sequence) return;
        const event = {
            sequence: e.sequence,
            remoteStatus: e.status,
            driver: e.driver,
            pending: true
        };
        run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.exchangeChanged(s, event));
        run.inbox.post({
            kind: 'exchange'
        });
    });
}
const heldByExchangeFleet = (run)=>{
    var _run_state_exchange;
    return Boolean((_run_state_exchange = run.state.exchange) === null || _run_state_exchange === void 0 ? void 0 : _run_state_exchange.fleetId);
};
const letGo = (run)=>run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.exchangeChanged(s, _object_spread_props(_object_spread({}, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.NO_EXCHANGE), {
            tried: s.exchange.tried
        })));
/** The job taken back from the fleet holding it: it is told to cancel (best effort), then its job is ended. */ async function takeBack(run, fleetId, end) {
    letGo(run);
    try {
        await followUps.sendExchangeJob({
            ref: run.ref,
            fleetId,
            action: 'cancel'
        });
    } catch (unused) {
        _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('exchange fleet unreachable for a cancel', {
            ref: run.ref,
            fleetId
        });
    }
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.endExchangeJob(_object_spread({
        ref: run.ref,
        fleetId
    }, end));
}
/** Every tier exhausted: the next approved fleet not yet asked gets the job ('exhausted': none took it). */ async function handToExchangeFleet(run) {
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.exchangeChanged(s, {}));
    // Fleets passed over for their licence this time: asked again next round (a licence may be renewed).
    const unlicensed = [];
    for(;;){
        if (run.inbox.interrupted()) return 'interrupted';
        const tried = run.state.exchange.tried;
        const next = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.nextExchangeFleet({
            ref: run.ref,
            tried: [
                ...tried,
                ...unlicensed
            ]
        });
        if (!next) return 'exhausted';
        const { fleetId } = next;
        if (next.refusal) {
            // Its operator licence is not on file, not of the kind, or lapsed by pickup: handing the job on
            // would be an unlawful sub-contract (docs/records.md, "Sub-contracting"). Passed over, and said why.
            unlicensed.push(fleetId);
            run.record('partner', _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.fleetCandidate(_object_spread_props(_object_spread({}, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.NO_EXCHANGE), {
                fleetId,
                fleetName: next.name
            })), 'skipped', next.refusal);
            continue;
        }
        // Held before it is sent: the fleet's first events can arrive before its answer does.
        const held = {
            fleetId,
            fleetName: next.name,
            tried: [
                ...tried,
                fleetId
            ],
            sent: _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.exchangeJobSent(run.state)
        };
        run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.exchangeChanged(s, _object_spread({}, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.NO_EXCHANGE, held)));
        const c = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.fleetCandidate(run.state.exchange);
        run.record('partner', c, 'offered');
        const sent = await handOver.sendExchangeJob({
            ref: run.ref,
            fleetId,
            action: 'new'
        }).catch(()=>null);
        if ((sent === null || sent === void 0 ? void 0 : sent.outcome) === 'accepted') {
            await run.setStatus('offered');
            return followExchangeFleet(run);
        }
        if (sent) {
            run.record('partner', c, 'declined', sent.code);
            letGo(run);
            continue;
        }
        // Unreachable: passed over. It may have booked the job before we gave up, so it is told to cancel (best effort).
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.endExchangeJob({
            ref: run.ref,
            fleetId,
            state: 'failed',
            reason: 'unreachable'
        });
        run.record('partner', c, 'skipped', 'fleet_unreachable');
        letGo(run);
        await handOver.sendExchangeJob({
            ref: run.ref,
            fleetId,
            action: 'cancel'
        }).catch(()=>undefined);
    }
}
/** The job is with a fleet: one step per event, back to the main loop; nobody by pickup and a grace: taken back. */ async function followExchangeFleet(run) {
    const withDriver = ()=>_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.EXCHANGE_WITH_DRIVER.includes(run.state.status);
    // Back from a wait that set our status aside: the fleet's last word stands again.
    if (run.state.status !== 'offered' && !withDriver()) await run.setStatus(_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.statusHeldByFleet(run.state.exchange));
    const takenBackAt = Date.parse(run.state.job.pickupAt) + _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.UNASSIGNED_GRACE_MS;
    const ready = run.state.exchange.pending || run.state.exchange.sent !== _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.exchangeJobSent(run.state);
    const until = withDriver() ? undefined : Math.max(1000, takenBackAt - Date.now());
    const woken = ready ? 'message' : await run.inbox.waitFor([
        'exchange'
    ], until);
    run.inbox.takeAll('exchange');
    const x = run.state.exchange;
    if (woken === 'timeout' && !x.pending) {
        run.record('partner', _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.fleetCandidate(x), 'timed_out', 'no_driver_at_fleet');
        await takeBack(run, x.fleetId, {
            state: 'released',
            reason: 'no driver by pickup'
        });
        return 'exhausted';
    }
    // A cancel goes through the main loop (cancelExchangeJob tells the fleet); amendments are applied there first.
    if (run.inbox.interrupted()) return 'interrupted';
    if (x.sent !== _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.exchangeJobSent(run.state)) {
        await sendAmendmentToExchangeFleet(run);
        return 'interrupted';
    }
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.exchangeChanged(s, {
            pending: false
        }));
    return applyFleetStatus(run, x);
}
/** Our booking was amended: the fleet holding the job is sent it at once (nothing if it has this version). */ async function sendAmendmentToExchangeFleet(run) {
    const x = run.state.exchange;
    if (!(x === null || x === void 0 ? void 0 : x.fleetId) || x.sent === _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.exchangeJobSent(run.state)) return;
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.exchangeChanged(s, {
            sent: _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.exchangeJobSent(s)
        }));
    const at = {
        ref: run.ref,
        fleetId: x.fleetId
    };
    try {
        const r = await followUps.sendExchangeJob(_object_spread_props(_object_spread({}, at), {
            action: 'amend'
        }));
        if (r.outcome === 'rejected') _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('exchange fleet refused an amendment', _object_spread_props(_object_spread({}, at), {
            code: r.code
        }));
    } catch (unused) {
        _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('exchange fleet unreachable for an amendment', at);
    }
}
async function applyFleetStatus(run, x) {
    var _x_remoteStatus;
    const fleetId = x.fleetId;
    const c = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.fleetCandidate(x);
    const remote = (_x_remoteStatus = x.remoteStatus) !== null && _x_remoteStatus !== void 0 ? _x_remoteStatus : '';
    if (remote === 'cancelled') {
        // The fleet gave the job back: the cascade starts afresh, without it.
        run.record('partner', c, 'dropped', 'fleet_cancelled');
        letGo(run);
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.endExchangeJob({
            ref: run.ref,
            fleetId,
            state: 'released',
            reason: 'cancelled by the fleet'
        });
        await run.setStatus('dispatching');
        return 'interrupted';
    }
    const wasWithDriver = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.EXCHANGE_WITH_DRIVER.includes(run.state.status);
    const { status, trip } = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.statusFromFleet(remote, run.state.status);
    const driver = trip ? x.driver : null;
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.applyExchangeStatus({
        ref: run.ref,
        fleetId,
        sequence: x.sequence,
        remoteStatus: remote,
        status,
        driver
    });
    if (status && status !== run.state.status) {
        var _ref;
        var _x_driver;
        if (status === 'assigned' || !wasWithDriver && trip) run.record('partner', _object_spread_props(_object_spread({}, c), {
            driverName: (_ref = (_x_driver = x.driver) === null || _x_driver === void 0 ? void 0 : _x_driver.name) !== null && _ref !== void 0 ? _ref : c.driverName
        }), 'accepted');
        if (wasWithDriver && status === 'offered') run.record('partner', c, 'dropped', 'fleet_driver_dropped');
        run.markStatus(status);
    }
    return status === 'assigned' ? 'assigned' : 'interrupted';
}
/** Our booking is cancelled: the fleet holding its job is told (after our record, so nobody waits on it). */ async function cancelExchangeJob(run) {
    var _run_state_exchange;
    const fleetId = (_run_state_exchange = run.state.exchange) === null || _run_state_exchange === void 0 ? void 0 : _run_state_exchange.fleetId;
    if (fleetId) await takeBack(run, fleetId, {
        state: 'cancelled'
    });
}


/***/ },

/***/ "./workflows/bookings/handlers.ts"
/*!****************************************!*\
  !*** ./workflows/bookings/handlers.ts ***!
  \****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   installHandlers: () => (/* binding */ installHandlers)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/definitions.ts");
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
/* harmony import */ var _exchange_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./exchange.js */ "./workflows/bookings/exchange.ts");
/* harmony import */ var _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ../../src/model/booking-state.js */ "./src/model/booking-state.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
// What a booking answers while it runs. Each update is checked by its rule in src/model/bookings.ts (a
// refused message never enters history) and posted to the inbox; it answers once the process has acted
// on it. What must be answered at once (an offer's answer, a suspension, an ops end) is folded in too.
;




function installHandlers(run) {
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.bookingStateQuery, ()=>run.state);
    const created = async ()=>{
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.persisted);
        return run.state;
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.bookingCreatedUpdate, created, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.createdRefusal));
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.emailConfirmedSignal, ()=>void run.inbox.post({
            kind: 'emailConfirmed'
        }));
    handleOfferAnswers(run);
    handleChanges(run);
    handleDrivers(run);
    handleTripReports(run);
    (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.installExchangeHandlers)(run);
}
const refuse = (r)=>_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure.nonRetryable(r.message, r.type);
/** An update's validator: its rule, read against the booking as it stands and what waits in its inbox. */ function checkedBy(run, rule) {
    return {
        validator: (input)=>{
            const refused = rule(run.state, input, run.pending());
            if (refused) throw refuse(refused);
        }
    };
}
/** Posts the message and answers the state once the process has acted on it. */ async function answered(run, msg) {
    await run.inbox.replied(run.inbox.post(msg), ()=>run.closed());
    return run.state;
}
function handleOfferAnswers(run) {
    const answerNow = (r)=>run.state.driverId === r.driverId ? 'accepted' : run.state.driverId !== null ? 'taken' : 'expired';
    const respond = async (r)=>{
        const offer = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.openOffer(run.state, r);
        if (!offer) return answerNow(r);
        if (offer.response) return offer.response;
        const response = r.decision === 'decline' ? 'declined' : 'accepted';
        run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.answered(s, r.offerId, response));
        run.inbox.post({
            kind: 'answer',
            offerId: r.offerId
        });
        if (response === 'declined') return 'declined';
        // Answer only once the assignment is recorded, so the driver and every lookup agree.
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>!_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.openOffer(run.state, r));
        return answerNow(r);
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.respondToOfferUpdate, respond, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.offerAnswerRefusal));
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.offerSeenSignal, (r)=>void run.inbox.post(_object_spread({
            kind: 'seen'
        }, r)));
}
/** A cancel, an amendment, or a driver named for the job (by ops, or by the operator of its own fleet). */ function handleChanges(run) {
    const cancel = async (cancel)=>{
        if (run.state.status === 'cancelled') return run.state;
        // The first cancel is the one acted on.
        if (!run.inbox.peek('cancel')) run.inbox.post({
            kind: 'cancel',
            cancel
        });
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.state.status === 'cancelled');
        return run.state;
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.cancelBookingUpdate, cancel, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.cancelRefusal));
    const amend = (amend)=>answered(run, {
            kind: 'amend',
            amend,
            number: run.inbox.count('amend') + 1
        });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.amendBookingUpdate, amend, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.amendRefusal));
    const fleetPick = (pick)=>answered(run, {
            kind: 'fleetPick',
            pick
        });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.assignFleetDriverUpdate, fleetPick, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.fleetPickRefusal));
    const opsPick = (pick)=>answered(run, {
            kind: 'opsPick',
            pick
        });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.offerToDriverUpdate, opsPick, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.opsPickRefusal));
}
/**
 * Drivers dropping the job, suspended, or taking it from the upcoming-jobs board. Two board claims can
 * both pass their validators in one task, so the handler checks again and the first one in wins. A
 * repeat by the driver who has it answers their offer again.
 */ function handleDrivers(run) {
    ;(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.driverDroppedSignal, (drop)=>{
        if (drop.driverId === run.state.driverId) run.inbox.post({
            kind: 'drop',
            drop
        });
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.driverSuspendedSignal, ({ driverId })=>{
        // Remembered even when the driver has neither the card nor the job yet: an accept racing the
        // suspension is taken off them as soon as it lands.
        if (run.closed() || _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.isSuspended(run.state, driverId)) return;
        run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.suspended(s, driverId));
        run.inbox.post({
            kind: 'suspended',
            driverId
        });
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.tripProgressSignal, (p)=>{
        if (p.driverId === run.state.driverId) run.inbox.post({
            kind: 'progress',
            progress: p.progress
        });
    });
    const claim = async (c)=>{
        var _ref, _ref1;
        const held = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.heldOfferId(run.state, c.driverId);
        if (held) return {
            offerId: held
        };
        const pending = run.inbox.peek('boardClaim');
        if (pending ? pending.msg.claim.driverId !== c.driverId : _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.isTaken(run.state)) throw refuse(_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.takenRefusal(run.state));
        const id = (_ref = pending === null || pending === void 0 ? void 0 : pending.id) !== null && _ref !== void 0 ? _ref : run.inbox.post({
            kind: 'boardClaim',
            claim: c
        });
        const outcome = await run.inbox.replied(id, ()=>run.closed());
        if (outcome && 'offerId' in outcome) return outcome;
        if (run.closed()) throw refuse(_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.closedRefusal(run.state));
        if ((outcome === null || outcome === void 0 ? void 0 : outcome.refused) === 'taken') throw refuse(_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.takenRefusal(run.state));
        const why = `you cannot take booking ${run.ref}: ${(_ref1 = outcome === null || outcome === void 0 ? void 0 : outcome.refused) !== null && _ref1 !== void 0 ? _ref1 : 'refused'}`;
        throw refuse({
            message: why,
            type: _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.BookingFailure.driverDoesNotFit
        });
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.claimUpcomingJobUpdate, claim, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.boardClaimRefusal));
}
/** The driver's reports, and the settlement once the trip is over. */ function handleTripReports(run) {
    const report = async (r)=>{
        if (r.event === 'confirm') {
            run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.confirmedBy(s, r.driverId));
            run.inbox.post({
                kind: 'confirmed',
                driverId: r.driverId
            });
            return run.state.status;
        }
        if (r.event === 'drop') run.inbox.post({
            kind: 'drop',
            drop: {
                driverId: r.driverId,
                reason: 'dropped'
            }
        });
        else if (run.state.status !== r.event) run.inbox.post({
            kind: 'progress',
            progress: r.event
        });
        const done = ()=>r.event !== 'drop' && run.state.status === r.event;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>done() || run.state.driverId !== r.driverId || run.closed());
        return run.state.status;
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.reportTripUpdate, report, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.tripReportRefusal));
    const paid = async ()=>{
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.state.payment != null);
        return run.state.payment;
    };
    const settle = async (settlement)=>{
        // The first confirmation is the settlement; a repeat (a retry, a second tap) gets its record.
        if (run.inbox.count('settle') === 0) {
            // Confirmed with the passenger on board: the trip's last step and its settlement in one update.
            if (_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.completedBySettling(run.state, settlement) && !run.inbox.peek('progress')) run.inbox.post({
                kind: 'progress',
                progress: 'completed'
            });
            run.inbox.post({
                kind: 'settle',
                settlement
            });
        }
        return paid();
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.settleBookingUpdate, settle, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.settlementRefusal));
    const endTrip = async (e)=>{
        const endedNow = run.state.ended == null;
        if (endedNow) {
            run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_4__.endedByOps(s, e.reason));
            run.inbox.post({
                kind: 'settle',
                settlement: _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.endTripSettlement(e)
            });
            if (run.state.status === 'on_board') run.inbox.post({
                kind: 'progress',
                progress: 'completed'
            });
        }
        return {
            payment: await paid(),
            endedNow
        };
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.endTripUpdate, endTrip, checkedBy(run, _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.endTripRefusal));
}


/***/ },

/***/ "./workflows/bookings/inbox.ts"
/*!*************************************!*\
  !*** ./workflows/bookings/inbox.ts ***!
  \*************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Inbox: () => (/* binding */ Inbox)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
// The booking's one inbox: every update and signal handler posts a typed message here, and the
// process waits only through Inbox.waitFor, which always wakes for a message that interrupts,
// whatever step it is in. A new kind of message is declared as one that interrupts or one that does not.
;
// (A kind added above and not here is a compile error.)
const INTERRUPTING = {
    cancel: 1,
    amend: 1,
    drop: 1,
    opsPick: 1,
    boardClaim: 1
};
class Inbox {
    post(msg) {
        const id = ++this.posted;
        this.waiting.push({
            id,
            msg
        });
        this.counts.set(msg.kind, this.count(msg.kind) + 1);
        return id;
    }
    /** How many messages of a kind ever arrived. */ count(kind) {
        var _this_counts_get;
        return (_this_counts_get = this.counts.get(kind)) !== null && _this_counts_get !== void 0 ? _this_counts_get : 0;
    }
    waitingOf(kind) {
        return this.waiting.filter((e)=>e.msg.kind === kind);
    }
    peek(kind) {
        return this.waitingOf(kind)[0];
    }
    take(kind) {
        const e = this.peek(kind);
        this.waiting = this.waiting.filter((w)=>w !== e);
        return e;
    }
    takeAll(kind) {
        const all = this.waitingOf(kind);
        this.waiting = this.waiting.filter((w)=>w.msg.kind !== kind);
        return all;
    }
    interrupted() {
        return this.waiting.some((e)=>e.msg.kind in INTERRUPTING) || this.alsoInterrupted();
    }
    /**
   * The process's one wait: until a message of `kinds` waits, anything interrupts, or `ms` pass (if
   * given; a message arriving with the deadline counts as the message).
   */ async waitFor(kinds, ms) {
        const woken = ()=>this.interrupted() || this.waiting.some((e)=>kinds.includes(e.msg.kind));
        if (ms === undefined) {
            this.stopTimer();
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(woken);
            return 'message';
        }
        const timer = this.timerAt(Date.now() + ms);
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>woken() || timer.fired);
        return woken() ? 'message' : 'timeout';
    }
    /**
   * The timer for a wait until `at`. A wait for the same moment as the last one (an offer group
   * woken by a card opened, say, and waiting again for the same card's deadline) keeps the timer it
   * had: each timer started and cancelled is two history events and a row in Temporal's timer queue.
   */ timerAt(at) {
        if (this.timer && this.timer.at === at && !this.timer.fired) return this.timer;
        this.stopTimer();
        const timer = {
            at,
            fired: false,
            scope: new _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.CancellationScope()
        };
        timer.scope.run(()=>(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.sleep)(at - Date.now())).then(()=>{
            timer.fired = true;
        }, ()=>undefined);
        this.timer = timer;
        return timer;
    }
    stopTimer() {
        if (this.timer && !this.timer.fired) this.timer.scope.cancel();
        this.timer = null;
    }
    /** The process's answer to a message whose update waits for it (replied). */ reply(id, answer = true) {
        this.replies.set(id, answer);
    }
    /** For handlers: waits for the process's answer to message `id`, or until `gaveUp`. */ async replied(id, gaveUp) {
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>this.replies.has(id) || gaveUp());
        return this.replies.get(id);
    }
    /** `alsoInterrupted`: what in the state interrupts too (a holder suspended, say). */ constructor(alsoInterrupted){
        _define_property(this, "alsoInterrupted", void 0);
        _define_property(this, "timer", void 0);
        _define_property(this, "waiting", void 0);
        _define_property(this, "counts", void 0);
        _define_property(this, "replies", void 0);
        _define_property(this, "posted", void 0);
        this.alsoInterrupted = alsoInterrupted;
        this.timer = null;
        this.waiting = [];
        this.counts = new Map();
        this.replies = new Map();
        this.posted = 0;
    }
}


/***/ },

/***/ "./workflows/bookings/offers.ts"
/*!**************************************!*\
  !*** ./workflows/bookings/offers.ts ***!
  \**************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   OfferGroup: () => (/* binding */ OfferGroup)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
/* harmony import */ var _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ../../src/model/booking-state.js */ "./src/model/booking-state.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// The one offer engine (docs/dispatch.md): up to `size` drivers hold the job card at once, each
// card withdrawn as soon as it is declined, or left unopened for the unseen cut, or opened and left
// unanswered for offerTimeoutSeconds; a freed place goes to the next driver at once. The first
// acceptance to reach the workflow wins (its messages are handled one at a time, and Postgres holds
// one open card per driver), so a booking never gets two drivers nor a driver two jobs.
;



class OfferGroup {
    offer(offerId) {
        return _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.openOffers(this.run.state).find((o)=>o.offerId === offerId);
    }
    sync(extra = []) {
        const offers = this.open.map((o)=>this.offer(o.offerId)).filter((o)=>o !== undefined);
        this.run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_3__.offersOut(s, [
                ...offers,
                ...extra
            ]));
    }
    /**
   * The card out to one more driver (claimed already); false when undeliverable. Only a driver alone in
   * holding it is texted: one joining others may see it taken before they read it, and each SMS costs 2p.
   */ async add(m, onCardOut) {
        const { run } = this;
        const { driverId } = m.candidate;
        const texted = this.open.length === 0;
        const offer = {
            offerId: m.offerId,
            driverId,
            round: run.state.round,
            tier: m.tier,
            expiresAt: m.expiresAt
        };
        this.sync([
            _object_spread_props(_object_spread({}, offer), {
                response: null,
                seen: false
            })
        ]);
        const out = _object_spread_props(_object_spread({}, m), {
            outAtMs: Date.now()
        });
        this.open.push(out);
        run.record(m.tier, m.candidate, 'offered');
        const card = _object_spread({
            offerId: m.offerId,
            ref: run.ref,
            driverId
        }, texted ? {} : {
            sms: false
        });
        if (!await cardDelivered(run.jobCards, card, m.cardSent)) {
            await this.close(out, 'withdrawn', 'skipped', 'job_card_undeliverable');
            return false;
        }
        // The window runs from when the card is out, not from the claim.
        out.outAtMs = Date.now();
        run.markStatus('offered');
        onCardOut === null || onCardOut === void 0 ? void 0 : onCardOut();
        return true;
    }
    /** How many more cards the group may have out now (at least one: a page is read only when there is room). */ freePlaces() {
        return Math.max(1, this.rules.size - this.open.length);
    }
    /** Waits while the group is full (`drain`: until it is empty); what ends the round, if anything. */ async settle(drain) {
        while(drain ? this.open.length > 0 : this.open.length >= this.rules.size){
            const r = await this.wait();
            if (r !== 'freed') return r;
        }
        return null;
    }
    /**
   * Until something changes the group: a driver won the job, a place was freed (a decline, a card
   * unopened or unanswered in its time, a driver suspended), or the main loop must act (every card
   * withdrawn). An acceptance that arrived before the card's time ran out counts.
   */ async wait() {
        const { run } = this;
        for(;;){
            this.readAnswers();
            const suspended = (o)=>_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.isSuspended(run.state, o.candidate.driverId);
            let freed = await this.closeAll(suspended, 'withdrawn', 'withdrawn', 'driver_suspended');
            const accepted = this.acceptances.map((id)=>this.open.find((o)=>o.offerId === id));
            const winner = accepted.find((o)=>o && this.answer(o) === 'accepted');
            if (winner) {
                await this.award(winner);
                return 'assigned';
            }
            freed = await this.closeAll((o)=>this.answer(o) === 'declined', 'declined', 'declined') || freed;
            if (run.inbox.interrupted()) {
                await this.withdrawAll();
                return 'interrupted';
            }
            // 'unseen': never opened, withdrawn at the short cut.
            const unseen = (o)=>{
                var _this_offer;
                return this.rules.unseenMs !== null && !((_this_offer = this.offer(o.offerId)) === null || _this_offer === void 0 ? void 0 : _this_offer.seen);
            };
            const now = Date.now();
            await this.readOpened(this.open.filter((o)=>now >= this.deadline(o) && unseen(o)));
            for (const o of this.open.filter((o)=>now >= this.deadline(o))){
                await this.close(o, 'timed_out', 'timed_out', unseen(o) ? 'unseen' : null);
                freed = true;
            }
            if (freed || this.open.length === 0) return 'freed';
            const next = Math.min(...this.open.map((o)=>this.deadline(o)));
            await run.inbox.waitFor([
                'answer',
                'seen',
                'suspended'
            ], Math.max(1, next - Date.now()));
        }
    }
    answer(o) {
        var _this_offer;
        return (_this_offer = this.offer(o.offerId)) === null || _this_offer === void 0 ? void 0 : _this_offer.response;
    }
    readAnswers() {
        for (const { msg } of this.run.inbox.takeAll('seen')){
            var _this_offer;
            if (((_this_offer = this.offer(msg.offerId)) === null || _this_offer === void 0 ? void 0 : _this_offer.driverId) === msg.driverId) this.run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_3__.seen(s, msg.offerId));
        }
        for (const { msg } of this.run.inbox.takeAll('answer'))this.acceptances.push(msg.offerId);
        this.run.inbox.takeAll('suspended');
    }
    /**
   * Cards at their unseen cut: whether their drivers opened them is read from Postgres here, where
   * the page or the app recorded it, rather than signalled at each look (a workflow task apiece).
   * An opened card gets its full window. (A booking's 'seen' messages, from an older API, count too.)
   */ async readOpened(atCut) {
        if (atCut.length === 0) return;
        const { opened } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.cardsOpened({
            offerIds: atCut.map((o)=>o.offerId)
        });
        for (const offerId of opened)this.run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_3__.seen(s, offerId));
    }
    deadline(o) {
        var _this_offer;
        return _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.cardDeadline(this.rules, o.outAtMs, Boolean((_this_offer = this.offer(o.offerId)) === null || _this_offer === void 0 ? void 0 : _this_offer.seen));
    }
    async closeAll(which, ...how) {
        const hit = this.open.filter(which);
        for (const o of hit)await this.close(o, ...how);
        return hit.length > 0;
    }
    async close(o, ...[status, outcome, reason = null]) {
        this.open.splice(this.open.indexOf(o), 1);
        this.sync();
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
            offerId: o.offerId,
            status
        });
        this.run.record(o.tier, o.candidate, outcome, reason);
    }
    /**
   * The winner is assigned first (so every later answer hears the job is taken), then the others'
   * cards withdrawn and the drivers told, all in the one local activity: an answer arriving meanwhile
   * is taken up in the next workflow task, and hears the job is taken.
   */ async award(w) {
        const { run } = this;
        const { driverId } = w.candidate;
        const losers = this.open.filter((o)=>o !== w);
        const taken = losers.map((m)=>({
                offerId: m.offerId,
                driverId: m.candidate.driverId
            }));
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.award.assignDriver({
            ref: run.ref,
            driverId,
            offerId: w.offerId,
            taken
        });
        this.open.length = 0;
        run.assigned(driverId);
        run.record(w.tier, w.candidate, 'accepted');
        for (const m of losers)run.record(m.tier, m.candidate, 'withdrawn', _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_3__.TAKEN_BY_ANOTHER);
    }
    /** Something interrupted the round: every card out is withdrawn before the main loop acts. */ async withdrawAll() {
        await this.closeAll(()=>true, 'withdrawn', 'withdrawn');
    }
    constructor(run, rules){
        _define_property(this, "run", void 0);
        _define_property(this, "rules", void 0);
        _define_property(this, "open", void 0);
        /** Offers accepted, in the order the answers arrived. */ _define_property(this, "acceptances", void 0);
        this.run = run;
        this.rules = rules;
        this.open = [];
        this.acceptances = [];
        // Answers to cards of an earlier group are stale: their cards are closed.
        for (const kind of [
            'answer',
            'seen',
            'suspended'
        ])run.inbox.takeAll(kind);
    }
}
/** Sends the card, unless it went with the claim already; false when it could not be delivered. */ async function cardDelivered(jobCards, card, sentWithClaim) {
    if (sentWithClaim) return sentWithClaim === 'sent';
    try {
        await jobCards.sendJobCard(card);
        return true;
    } catch (err) {
        // A full activity's failure comes wrapped in an ActivityFailure; a local activity's arrives as
        // the failure itself (the card's ApplicationFailure, or the TimeoutFailure of its schedule-to-close).
        if (err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ActivityFailure || err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure || err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.TimeoutFailure) return false;
        throw err;
    }
}


/***/ },

/***/ "./workflows/bookings/run.ts"
/*!***********************************!*\
  !*** ./workflows/bookings/run.ts ***!
  \***********************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BookingRun: () => (/* binding */ BookingRun)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/definitions.ts");
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
/* harmony import */ var _inbox_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ./inbox.js */ "./workflows/bookings/inbox.ts");
/* harmony import */ var _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(/*! ../../src/model/booking-state.js */ "./src/model/booking-state.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
// One booking's run: its state (src/model/booking-state.ts), its inbox (inbox.ts) and the little the
// process keeps for itself. Every status change goes through markStatus, which keeps the Web UI's search
// attributes in step.
;





/**
 * Job cards, undeliverable past the offer window: local activities, so no server round trip stands before
 * a card; each is idempotent per offer and channel, so a rerun after a worker crash never sends one twice.
 */ const jobCardActivities = (policy)=>(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyLocalActivities)({
        startToCloseTimeout: '30 seconds',
        scheduleToCloseTimeout: policy.offerTimeoutSeconds * 1000,
        retry: {
            initialInterval: '1 second',
            maximumInterval: '10 seconds'
        }
    });
class BookingRun {
    get policy() {
        return this.input.policy;
    }
    move(transition) {
        this.state = transition(this.state);
    }
    closed() {
        return _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.isClosed(this.state);
    }
    onBoardWithSuspendedDriver() {
        return _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.isSuspended(this.state, this.state.driverId) && this.state.status === 'on_board' && !this.opsToldOnBoard;
    }
    /** The passenger confirmed their email, or was never asked to. */ emailConfirmed() {
        return !this.input.awaitEmailConfirmation || this.inbox.count('emailConfirmed') > 0;
    }
    /** What the booking's rules read besides its state: who picks the driver, and what waits in the inbox. */ pending() {
        const { inbox } = this;
        return {
            operatorId: this.operatorId,
            emailConfirmed: this.emailConfirmed(),
            cancelling: inbox.peek('cancel') !== undefined,
            reported: inbox.waitingOf('progress').map((e)=>e.msg.progress),
            fleetPicking: inbox.peek('fleetPick') !== undefined,
            opsPicking: inbox.peek('opsPick') !== undefined,
            claimants: inbox.waitingOf('boardClaim').map((e)=>e.msg.claim.driverId),
            settlementSent: inbox.count('settle') > 0
        };
    }
    record(tier, candidate, outcome, reason) {
        this.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_5__.recorded(s, {
                tier,
                candidate,
                outcome,
                reason,
                at: new Date().toISOString()
            }));
        // (A driver suspended, or told the job was taken, needs no news of an amendment.)
        const quiet = reason === 'driver_suspended' || reason === _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_5__.TAKEN_BY_ANOTHER;
        if (outcome === 'withdrawn' && !quiet && !this.withdrawnCards.includes(candidate.driverId)) this.withdrawnCards.push(candidate.driverId);
    }
    markStatus(status) {
        var _this_input_booking_partnerId;
        this.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_5__.statusSet(s, status));
        // Each upsert is a history event: a group's second and third cards change nothing the Web UI searches on.
        const shown = [
            status,
            this.state.job.pickupAt,
            this.state.driverId
        ].join('|');
        if (shown === this.attributesShown) return;
        this.attributesShown = shown;
        (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.upsertSearchAttributes)([
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.status,
                value: status
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.pickupAt,
                value: new Date(this.state.job.pickupAt)
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.driver,
                value: this.state.driverId
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.source,
                value: this.input.booking.source
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.partner,
                value: (_this_input_booking_partnerId = this.input.booking.partnerId) !== null && _this_input_booking_partnerId !== void 0 ? _this_input_booking_partnerId : null
            }
        ]);
    }
    /** A status change the workflow itself records in Postgres (others are written by the activity that caused them). */ async setStatus(status) {
        if (this.state.status === status) return;
        this.markStatus(status);
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.setBookingStatus({
            ref: this.ref,
            status
        });
    }
    assigned(driverId) {
        this.assignedAtMs = Date.now();
        this.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_5__.assigned(s, driverId));
        this.markStatus('assigned');
    }
    released(driverId, outcome, reason) {
        this.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_5__.released(s, {
                driverId,
                outcome,
                reason,
                at: new Date().toISOString()
            }));
        this.markStatus('dispatching');
    }
    constructor(input){
        var _input_booking_operatorId, _input_emailConfirmationFirst;
        _define_property(this, "input", void 0);
        _define_property(this, "ref", void 0);
        _define_property(this, "state", void 0);
        _define_property(this, "inbox", void 0);
        _define_property(this, "jobCards", void 0);
        /** Operator bookings never enter the cascade: the operator's dashboard picks the driver. */ _define_property(this, "operatorId", void 0);
        /** The passenger is emailed their confirmation before dispatch begins. */ _define_property(this, "confirmationFirst", void 0);
        /** When an unconfirmed booking is cancelled for want of the passenger's confirmation. */ _define_property(this, "emailDeadlineMs", void 0);
        /** The record is written: the routes waiting on bookingCreated may answer. */ _define_property(this, "persisted", void 0);
        _define_property(this, "exhaustedRounds", void 0);
        _define_property(this, "assignedAtMs", void 0);
        /** The driver asked to confirm on the day (once per driver). */ _define_property(this, "confirmAskedOf", void 0);
        /** Ops have been told that a suspended driver has a passenger on board. */ _define_property(this, "opsToldOnBoard", void 0);
        /** Round 1's first page, claimed with the record, until the first round takes it up (or lets it go). */ _define_property(this, "firstPage", void 0);
        /** The status, pickup time and driver last written to the search attributes. */ _define_property(this, "attributesShown", void 0);
        /** Drivers whose card was withdrawn since the last amendment: a new pickup or drop-off tells them. */ _define_property(this, "withdrawnCards", void 0);
        this.input = input;
        this.persisted = false;
        this.exhaustedRounds = 0;
        this.assignedAtMs = 0;
        this.confirmAskedOf = null;
        this.opsToldOnBoard = false;
        this.firstPage = null;
        this.attributesShown = null;
        this.withdrawnCards = [];
        this.ref = input.booking.ref;
        this.operatorId = (_input_booking_operatorId = input.booking.operatorId) !== null && _input_booking_operatorId !== void 0 ? _input_booking_operatorId : null;
        this.confirmationFirst = (_input_emailConfirmationFirst = input.emailConfirmationFirst) !== null && _input_emailConfirmationFirst !== void 0 ? _input_emailConfirmationFirst : Boolean(input.booking.passengerEmail && input.booking.source.startsWith('v1'));
        this.state = _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_5__.opened(input, Date.now());
        this.emailDeadlineMs = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.emailDeadline(input.job.pickupAt, Date.now());
        this.jobCards = jobCardActivities(input.policy);
        this.inbox = new _inbox_js__WEBPACK_IMPORTED_MODULE_4__.Inbox(()=>_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_3__.holderSuspended(this.state) || this.onBoardWithSuspendedDriver());
    }
}


/***/ },

/***/ "./workflows/bookings/trip.ts"
/*!************************************!*\
  !*** ./workflows/bookings/trip.ts ***!
  \************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   followTrip: () => (/* binding */ followTrip),
/* harmony export */   releaseDriver: () => (/* binding */ releaseDriver),
/* harmony export */   settle: () => (/* binding */ settle),
/* harmony export */   tell: () => (/* binding */ tell)
/* harmony export */ });
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
/* harmony import */ var _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/booking-state.js */ "./src/model/booking-state.ts");
// Following the trip once a driver holds the job: confirmed on the day if accepted well ahead, a
// no-show let go, each report a step; a completed trip then waits for its settlement.



/** How long a completed trip waits for the driver (or a provider) to confirm what was paid. */ const SETTLEMENT_WINDOW_MS = 7 * 24 * 60 * 60000;
/** The passenger hears the news by the channel they gave, unless a partner's customer (the partner tells them). */ async function tell(run, news) {
    if (_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.passengerHearsFromUs(run.input.booking.source)) await _activities_js__WEBPACK_IMPORTED_MODULE_0__.acts.tellPassenger({
        ref: run.ref,
        news
    });
}
/** The driver holding the job lets it go (dropped, no-show, suspended, released, not confirmed). */ async function releaseDriver(run, d) {
    if (d.driverId !== run.state.driverId) return;
    await _activities_js__WEBPACK_IMPORTED_MODULE_0__.acts.releaseDriver({
        ref: run.ref,
        driverId: d.driverId,
        reason: d.reason
    });
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_2__.droppedBy(s, d.driverId));
    const withdrawn = d.reason === 'suspended' || d.reason === 'released';
    run.released(d.driverId, withdrawn ? 'withdrawn' : 'dropped', d.reason);
    await tell(run, {
        kind: 'driver_replaced',
        driverId: d.driverId
    });
}
async function followTrip(run) {
    const { policy, assignedAtMs } = run;
    const driverId = run.state.driverId;
    if (run.state.status === 'assigned' && _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.acceptedWellAhead(policy, run.state.job.pickupAt, assignedAtMs)) {
        if (await confirmOnTheDay(run, driverId) === 'again') return 'again';
    }
    if (run.state.status === 'assigned' && !run.inbox.peek('progress')) {
        const noShowAt = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.noShowTime(policy, run.state.job.pickupAt, assignedAtMs);
        if (await run.inbox.waitFor([
            'progress'
        ], Math.max(1000, noShowAt - Date.now())) === 'timeout') {
            await releaseDriver(run, {
                driverId,
                reason: 'no_show'
            });
            return 'again';
        }
    } else if (!run.inbox.peek('progress')) {
        await run.inbox.waitFor([
            'progress'
        ]);
    }
    const report = run.inbox.take('progress');
    // Reports arriving as signals are checked here; the reportTrip update's validator already refuses them.
    if (!report || !_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.isNextTripStep(run.state.status, report.msg.progress)) return 'again';
    const p = report.msg.progress;
    await run.setStatus(p);
    return p === 'completed' || p === 'no_show' ? 'closed' : 'again';
}
/**
 * A job accepted well ahead: the driver is asked to confirm before pickup (unless they have, or
 * started) and, with no answer by the deadline, let go so another is found in time. 'again' when
 * something else came first or the driver was let go.
 */ async function confirmOnTheDay(run, driverId) {
    const settled = ()=>run.state.confirmedDriverId === driverId || run.inbox.peek('progress') !== undefined;
    const wait = async (ms)=>{
        const woken = settled() ? 'message' : await run.inbox.waitFor([
            'confirmed',
            'progress'
        ], ms);
        run.inbox.takeAll('confirmed');
        return woken === 'timeout' ? 'timeout' : settled() ? 'proceed' : 'again';
    };
    if (settled()) return 'proceed';
    const { askAt, deadline } = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_1__.confirmTimes(run.policy, run.state.job.pickupAt);
    if (Date.now() < askAt) {
        const woken = await wait(askAt - Date.now());
        if (woken !== 'timeout') return woken;
    }
    if (run.confirmAskedOf !== driverId) {
        run.confirmAskedOf = driverId;
        await _activities_js__WEBPACK_IMPORTED_MODULE_0__.acts.askDriverToConfirm({
            ref: run.ref,
            driverId,
            deadline: new Date(deadline).toISOString()
        });
    }
    const woken = await wait(Math.max(1000, deadline - Date.now()));
    if (woken !== 'timeout') return woken;
    await releaseDriver(run, {
        driverId,
        reason: 'not_confirmed'
    });
    return 'again';
}
/**
 * Settling is a step of the booking: the driver confirms what was received (or a provider's
 * webhook does, or ops ending the trip), and it is written once as an immutable payment record.
 */ async function settle(run) {
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_2__.paid(s, null));
    const until = Date.now() + SETTLEMENT_WINDOW_MS;
    while(!run.inbox.peek('settle')){
        // The trip is over: nothing left for a drop, say, that came with its last report.
        for (const kind of [
            'cancel',
            'amend',
            'drop',
            'opsPick',
            'boardClaim'
        ])run.inbox.takeAll(kind);
        if (await run.inbox.waitFor([
            'settle'
        ], Math.max(1, until - Date.now())) === 'timeout') return;
    }
    const settlement = run.inbox.take('settle').msg.settlement;
    // A row in Postgres, written in the settlement's own workflow task: the driver's tap is answered there.
    const payment = await _activities_js__WEBPACK_IMPORTED_MODULE_0__.db.recordPayment({
        ref: run.ref,
        driverId: run.state.driverId,
        settlement
    });
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_2__.paid(s, payment));
    await tell(run, {
        kind: 'receipt'
    });
    // Ended by ops: the passenger and the driver hear how it was settled.
    if (run.state.ended) await _activities_js__WEBPACK_IMPORTED_MODULE_0__.acts.sendTripEndedByOps({
        ref: run.ref,
        driverId: run.state.driverId
    });
}


/***/ },

/***/ "./workflows/bookings/v1/activities.ts"
/*!*********************************************!*\
  !*** ./workflows/bookings/v1/activities.ts ***!
  \*********************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   acts: () => (/* reexport safe */ _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts),
/* harmony export */   db: () => (/* reexport safe */ _activities_js__WEBPACK_IMPORTED_MODULE_1__.db),
/* harmony export */   jobCardActivities: () => (/* binding */ jobCardActivities)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../../activities.js */ "./workflows/activities.ts");
// The activities a booking calls, as the booking workflow sees them.

// Messages leave the service, so they are full activities (visible in history, retried by the
// server); short Postgres writes and reads run as local activities: no server round trip per step,
// which is most of the time between a booking and its first job card.

/**
 * Job cards: a card that cannot be delivered within the offer window is no use to anyone. They run
 * inside the workflow task, so no server round trip stands between a booking and its card; a card
 * is a couple of notifier calls under an idempotency key per offer and channel, so running it again
 * after a worker crash (a local activity's at-least-once) never sends one twice.
 */ function jobCardActivities(policy) {
    return (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyLocalActivities)({
        startToCloseTimeout: '30 seconds',
        scheduleToCloseTimeout: policy.offerTimeoutSeconds * 1000,
        retry: {
            initialInterval: '1 second',
            maximumInterval: '10 seconds'
        }
    });
}


/***/ },

/***/ "./workflows/bookings/v1/cascade.ts"
/*!******************************************!*\
  !*** ./workflows/bookings/v1/cascade.ts ***!
  \******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   firstPageQuery: () => (/* binding */ firstPageQuery),
/* harmony export */   letFirstPageGo: () => (/* binding */ letFirstPageGo),
/* harmony export */   offerToFleetDriver: () => (/* binding */ offerToFleetDriver),
/* harmony export */   offerToOpsPick: () => (/* binding */ offerToOpsPick),
/* harmony export */   pageQuery: () => (/* binding */ pageQuery),
/* harmony export */   runCascadeRound: () => (/* binding */ runCascadeRound),
/* harmony export */   takeBoardClaim: () => (/* binding */ takeBoardClaim)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./activities.js */ "./workflows/bookings/v1/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/v1/definitions.ts");
/* harmony import */ var _exchange_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./exchange.js */ "./workflows/bookings/v1/exchange.ts");
/* harmony import */ var _group_offer_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ./group-offer.js */ "./workflows/bookings/v1/group-offer.ts");
/* harmony import */ var _offer_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(/*! ./offer.js */ "./workflows/bookings/v1/offer.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// Finding a driver: a round of the cascade goes through the tiers in order (local, national,
// partner fleets), a page of the nearest eligible drivers at a time, offering the job to one
// driver at a time (offer.ts); when every tier is exhausted, an exchange fleet running this same API
// may take the job (exchange.ts), and the round then follows it there. An operator's job skips the
// cascade: its own pick is offered.
;





/** What a page of candidates is read with; round 1's first page is read so with the record. */ function pageQuery(run, round, tier, page, offered) {
    const b = run.input.booking;
    return {
        ref: run.ref,
        round,
        tier,
        job: run.state.job,
        exclude: [
            ...offered
        ],
        limit: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.CANDIDATE_PAGE_SIZE,
        page,
        trip: {
            pickup: {
                lat: b.pickup.lat,
                lon: b.pickup.lon
            },
            pickupArea: b.pickupArea,
            durationS: b.durationS
        }
    };
}
/** Round 1's first page, read and claimed with the booking's record (and its card sent). */ function firstPageQuery(run) {
    return _object_spread_props(_object_spread({}, pageQuery(run, run.state.round, _definitions_js__WEBPACK_IMPORTED_MODULE_2__.TIERS[0], 0, new Set(run.state.droppedDriverIds))), {
        offerTimeoutSeconds: run.policy.offerTimeoutSeconds
    });
}
/**
 * A first page claimed with the record but overtaken (a cancel or an amendment came first): the
 * driver it holds is let go at once, and its round counts as run, so the next round's offers
 * and decision log start afresh.
 */ async function letFirstPageGo(run, page) {
    run.firstPage = null;
    const claim = page.claim;
    const held = (claim === null || claim === void 0 ? void 0 : claim.driverId) ? page.candidates.find((c)=>c.driverId === claim.driverId) : undefined;
    if (!(claim === null || claim === void 0 ? void 0 : claim.offerId) || !held) return;
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
        offerId: claim.offerId,
        status: 'withdrawn'
    });
    run.record(_definitions_js__WEBPACK_IMPORTED_MODULE_2__.TIERS[0], held, 'withdrawn', run.cancelRequest ? 'cancelled' : 'amendment');
}
/** The next page of eligible candidates of a tier, with the first of them claimed if free. */ async function candidatePage(run, round, tier, page, offered) {
    var _run_state, _tiers;
    // Round 1's first page, when it came with the record (runCascadeRound keeps its round number).
    if (run.firstPage && tier === _definitions_js__WEBPACK_IMPORTED_MODULE_2__.TIERS[0] && page === 0) {
        var _run_state1, _tiers1;
        const p = run.firstPage;
        run.firstPage = null;
        ((_tiers1 = (_run_state1 = run.state).tiers) !== null && _tiers1 !== void 0 ? _tiers1 : _run_state1.tiers = []).push({
            round,
            tier,
            considered: p.considered,
            eligible: p.eligible
        });
        return {
            candidates: p.candidates,
            claim: p.claim,
            card: p.card
        };
    }
    const p = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.claimFromCandidatePage(_object_spread_props(_object_spread({}, pageQuery(run, round, tier, page, offered)), {
        offerTimeoutSeconds: run.policy.offerTimeoutSeconds
    }));
    if (page === 0) ((_tiers = (_run_state = run.state).tiers) !== null && _tiers !== void 0 ? _tiers : _run_state.tiers = []).push({
        round,
        tier,
        considered: p.considered,
        eligible: p.eligible
    });
    return {
        candidates: p.candidates,
        claim: p.claim
    };
}
async function runCascadeRound(run, jobCards) {
    var _run_state_suspendedDriverIds;
    // The job is with an exchange fleet (only ever so on the exchange's patched path): follow it there.
    if ((0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.heldByExchangeFleet)(run)) return (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.followExchangeFleet)(run);
    // A round begun with the booking's record (its first page already claimed) is this one.
    if (!run.firstPage) run.state.round += 1;
    const round = run.state.round;
    // Nobody who dropped the job, or was suspended while offered it, is asked again.
    const offered = new Set([
        ...run.state.droppedDriverIds,
        ...(_run_state_suspendedDriverIds = run.state.suspendedDriverIds) !== null && _run_state_suspendedDriverIds !== void 0 ? _run_state_suspendedDriverIds : []
    ]);
    await run.setStatus('dispatching');
    if ((0,_group_offer_js__WEBPACK_IMPORTED_MODULE_4__.hasOfferPolicy)(run) && (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(_group_offer_js__WEBPACK_IMPORTED_MODULE_4__.GROUP_OFFERS)) return runGroupRound(run, jobCards, round, offered);
    for (const tier of _definitions_js__WEBPACK_IMPORTED_MODULE_2__.TIERS){
        for(let page = 0;; page++){
            var _ref;
            const { candidates, claim, card } = await candidatePage(run, round, tier, page, offered);
            if (candidates.length === 0) break;
            // What the page's own claim found: drivers taken by other bookings, and the one it holds.
            const busy = new Set((_ref = claim === null || claim === void 0 ? void 0 : claim.busy) !== null && _ref !== void 0 ? _ref : []);
            let held = (claim === null || claim === void 0 ? void 0 : claim.driverId) != null ? claim : null;
            for (const c of candidates){
                if (run.interrupted()) {
                    // A driver claimed with the page but never sent the card is let go at once.
                    if (held === null || held === void 0 ? void 0 : held.offerId) await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                        offerId: held.offerId,
                        status: 'withdrawn'
                    });
                    return 'interrupted';
                }
                const id = (0,_definitions_js__WEBPACK_IMPORTED_MODULE_2__.offerId)(run.ref, round, c.driverId);
                offered.add(c.driverId);
                if (run.isSuspended(c.driverId)) {
                    // Suspended since the page was read: not asked (a card sent with the page's claim is withdrawn).
                    if ((held === null || held === void 0 ? void 0 : held.driverId) === c.driverId && held.offerId) await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                        offerId: held.offerId,
                        status: 'withdrawn'
                    });
                    if ((held === null || held === void 0 ? void 0 : held.driverId) === c.driverId) held = null;
                    run.record(tier, c, 'skipped', 'driver_suspended');
                    continue;
                }
                if (busy.has(c.driverId)) {
                    run.record(tier, c, 'skipped', 'busy');
                    continue;
                }
                let expiresAt;
                // What became of the card already sent with the claim (first pages claimed with the record).
                let cardSent;
                if ((held === null || held === void 0 ? void 0 : held.driverId) === c.driverId && held.expiresAt) {
                    expiresAt = held.expiresAt;
                    cardSent = card;
                    held = null;
                } else {
                    expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
                    // Another booking may have claimed this driver since the candidates were read.
                    const { claimed } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.openOffer({
                        offerId: id,
                        ref: run.ref,
                        driverId: c.driverId,
                        round,
                        tier,
                        expiresAt
                    });
                    if (!claimed) {
                        run.record(tier, c, 'skipped', 'busy');
                        continue;
                    }
                }
                const outcome = await (0,_offer_js__WEBPACK_IMPORTED_MODULE_5__.offerJob)(run, jobCards, {
                    tier,
                    round,
                    candidate: c,
                    offerId: id,
                    expiresAt,
                    cardSent
                });
                if (outcome === 'assigned') return 'assigned';
                if (outcome === 'withdrawn') return 'interrupted';
            }
        }
    }
    // Nobody of ours: an exchange fleet, if one takes it (bookings started before it: 'exhausted').
    return (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.handToExchangeFleet)(run);
}
/**
 * A round under the offer policy (group-offer.ts): the same tiers, pages and checks as one driver
 * at a time, but up to offerGroupSize drivers hold the card at once and a place freed (a decline, a
 * card unopened or unanswered in its time) goes to the next candidate at once. A tier's cards are
 * all settled before the next tier is asked, so a nearer tier is never raced by a further one.
 */ async function runGroupRound(run, jobCards, round, offered) {
    const group = new _group_offer_js__WEBPACK_IMPORTED_MODULE_4__.OfferGroup(run, jobCards);
    /** Waits while the group is full (`drain`: until it is empty); what ends the round, if anything. */ const settle = async (drain)=>{
        while(drain ? group.size > 0 : group.size >= group.capacity){
            const r = await group.wait();
            if (r === 'assigned') return 'assigned';
            if (r === 'withdrawn') return 'interrupted';
        }
        return null;
    };
    for (const tier of _definitions_js__WEBPACK_IMPORTED_MODULE_2__.TIERS){
        for(let page = 0;; page++){
            var _ref;
            const { candidates, claim, card } = await candidatePage(run, round, tier, page, offered);
            if (candidates.length === 0) break;
            const busy = new Set((_ref = claim === null || claim === void 0 ? void 0 : claim.busy) !== null && _ref !== void 0 ? _ref : []);
            let held = (claim === null || claim === void 0 ? void 0 : claim.driverId) != null ? claim : null;
            for (const c of candidates){
                if (run.interrupted()) {
                    // A driver claimed with the page but never sent the card is let go at once, and every card out withdrawn.
                    if (held === null || held === void 0 ? void 0 : held.offerId) await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                        offerId: held.offerId,
                        status: 'withdrawn'
                    });
                    await group.withdrawAll();
                    return 'interrupted';
                }
                offered.add(c.driverId);
                if (run.isSuspended(c.driverId)) {
                    if ((held === null || held === void 0 ? void 0 : held.driverId) === c.driverId && held.offerId) await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                        offerId: held.offerId,
                        status: 'withdrawn'
                    });
                    if ((held === null || held === void 0 ? void 0 : held.driverId) === c.driverId) held = null;
                    run.record(tier, c, 'skipped', 'driver_suspended');
                    continue;
                }
                if (busy.has(c.driverId)) {
                    run.record(tier, c, 'skipped', 'busy');
                    continue;
                }
                const id = (0,_definitions_js__WEBPACK_IMPORTED_MODULE_2__.offerId)(run.ref, round, c.driverId);
                let member;
                if ((held === null || held === void 0 ? void 0 : held.driverId) === c.driverId && held.expiresAt) {
                    member = {
                        tier,
                        candidate: c,
                        offerId: id,
                        expiresAt: held.expiresAt,
                        cardSent: card
                    };
                    held = null;
                } else {
                    const expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
                    // Another booking may have claimed this driver since the candidates were read.
                    const { claimed } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.openOffer({
                        offerId: id,
                        ref: run.ref,
                        driverId: c.driverId,
                        round,
                        tier,
                        expiresAt
                    });
                    if (!claimed) {
                        run.record(tier, c, 'skipped', 'busy');
                        continue;
                    }
                    member = {
                        tier,
                        candidate: c,
                        offerId: id,
                        expiresAt
                    };
                }
                await group.add(member);
                const ended = await settle(false);
                if (ended) return ended;
            }
        }
        const ended = await settle(true);
        if (ended) return ended;
    }
    return (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.handToExchangeFleet)(run);
}
/**
 * Operator bookings never enter the cascade: the operator picks a driver of its own fleet, who gets
 * the job card like any other and accepts or declines in the driver app. A decline or silence
 * hands the job back to the operator's dashboard.
 */ async function offerToFleetDriver(run, jobCards, pick) {
    await offerToNamedDriver(run, jobCards, pick, 'partner', ()=>run.fleetPicksServed += 1);
}
/**
 * Ops hand a booking nobody holds to a driver they name: that driver alone is offered it, with the
 * usual job card, in a round of its own. A decline or silence puts the booking back in the cascade.
 */ async function offerToOpsPick(run, jobCards, pick) {
    await offerToNamedDriver(run, jobCards, pick, 'local', ()=>run.opsPicksServed += 1);
}
/** One named driver offered the job; `served` answers whoever named them once the card is out (or could not be). */ async function offerToNamedDriver(run, jobCards, pick, tier, served) {
    run.state.round += 1;
    const round = run.state.round;
    const c = {
        driverId: pick.driverId,
        driverName: pick.driverName,
        distanceMeters: null
    };
    const id = (0,_definitions_js__WEBPACK_IMPORTED_MODULE_2__.offerId)(run.ref, round, pick.driverId);
    const expiresAt = new Date(Date.now() + run.policy.offerTimeoutSeconds * 1000).toISOString();
    const { claimed } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.openOffer({
        offerId: id,
        ref: run.ref,
        driverId: pick.driverId,
        round,
        tier,
        expiresAt
    });
    if (!claimed) {
        run.record(tier, c, 'skipped', 'busy');
        served();
        return;
    }
    // The request is answered once the card is out (or could not be delivered).
    const outcome = await (0,_offer_js__WEBPACK_IMPORTED_MODULE_5__.offerJob)(run, jobCards, {
        tier,
        round,
        candidate: c,
        offerId: id,
        expiresAt,
        onCardOut: served
    });
    if (outcome === 'undeliverable') served();
}
/**
 * A driver took the job from the upcoming-jobs board: their claim is made as an offer's is, under
 * their row lock, and accepted at once (no job card: they chose it), so the passenger hears who is
 * coming as on any assignment. The decision log records it as claimed from the board. Refused
 * (the answer says why) when the job went to someone first or the driver no longer fits; the
 * booking then carries on as it was, waiting for its dispatch time or its next round.
 */ async function takeBoardClaim(run) {
    const claim = run.boardClaim;
    run.boardClaim = null;
    if (run.state.driverId !== null || run.state.offer !== null || (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.heldByExchangeFleet)(run)) {
        run.boardClaims.set(claim.driverId, {
            refused: 'taken'
        });
        return;
    }
    run.state.round += 1;
    const round = run.state.round;
    const c = {
        driverId: claim.driverId,
        driverName: claim.driverName,
        distanceMeters: null
    };
    const id = (0,_definitions_js__WEBPACK_IMPORTED_MODULE_2__.offerId)(run.ref, round, claim.driverId);
    const r = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.claimUpcomingJob({
        ref: run.ref,
        driverId: claim.driverId,
        offerId: id,
        round,
        job: run.state.job,
        durationS: run.input.booking.durationS
    });
    if (!r.claimed) {
        run.record('local', c, 'skipped', 'board_claim_refused');
        run.boardClaims.set(claim.driverId, {
            refused: r.reason
        });
        return;
    }
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.assignDriver({
        ref: run.ref,
        driverId: claim.driverId,
        offerId: id
    });
    run.assigned(claim.driverId);
    run.record('local', c, 'accepted', 'claimed_from_board');
    run.boardClaims.set(claim.driverId, {
        offerId: id
    });
}


/***/ },

/***/ "./workflows/bookings/v1/definitions.ts"
/*!**********************************************!*\
  !*** ./workflows/bookings/v1/definitions.ts ***!
  \**********************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BOOKING_STATUSES: () => (/* binding */ BOOKING_STATUSES),
/* harmony export */   BOOKING_WORKFLOW_PREFIX: () => (/* binding */ BOOKING_WORKFLOW_PREFIX),
/* harmony export */   BookingFailure: () => (/* binding */ BookingFailure),
/* harmony export */   BookingSearchAttributes: () => (/* binding */ BookingSearchAttributes),
/* harmony export */   CANDIDATE_PAGE_SIZE: () => (/* binding */ CANDIDATE_PAGE_SIZE),
/* harmony export */   DRIVER_ON_THE_WAY: () => (/* binding */ DRIVER_ON_THE_WAY),
/* harmony export */   EXCHANGE_FAILURE: () => (/* binding */ EXCHANGE_FAILURE),
/* harmony export */   NEXT_TRIP_STEPS: () => (/* binding */ NEXT_TRIP_STEPS),
/* harmony export */   NOTHING_DUE: () => (/* binding */ NOTHING_DUE),
/* harmony export */   PAYMENT_METHODS: () => (/* binding */ PAYMENT_METHODS),
/* harmony export */   SETTLEMENT_METHODS: () => (/* binding */ SETTLEMENT_METHODS),
/* harmony export */   TERMINAL_STATUSES: () => (/* binding */ TERMINAL_STATUSES),
/* harmony export */   TIERS: () => (/* binding */ TIERS),
/* harmony export */   amendBookingUpdate: () => (/* binding */ amendBookingUpdate),
/* harmony export */   assignFleetDriverUpdate: () => (/* binding */ assignFleetDriverUpdate),
/* harmony export */   bookingCreatedUpdate: () => (/* binding */ bookingCreatedUpdate),
/* harmony export */   bookingRefFromWorkflowId: () => (/* binding */ bookingRefFromWorkflowId),
/* harmony export */   bookingStateQuery: () => (/* binding */ bookingStateQuery),
/* harmony export */   bookingWorkflowId: () => (/* binding */ bookingWorkflowId),
/* harmony export */   cancelBookingUpdate: () => (/* binding */ cancelBookingUpdate),
/* harmony export */   claimUpcomingJobUpdate: () => (/* binding */ claimUpcomingJobUpdate),
/* harmony export */   driverDroppedSignal: () => (/* binding */ driverDroppedSignal),
/* harmony export */   driverSuspendedSignal: () => (/* binding */ driverSuspendedSignal),
/* harmony export */   emailConfirmedSignal: () => (/* binding */ emailConfirmedSignal),
/* harmony export */   endTripSettlement: () => (/* binding */ endTripSettlement),
/* harmony export */   endTripUpdate: () => (/* binding */ endTripUpdate),
/* harmony export */   exchangeStatusSignal: () => (/* binding */ exchangeStatusSignal),
/* harmony export */   initialSearchAttributes: () => (/* binding */ initialSearchAttributes),
/* harmony export */   initialStatus: () => (/* binding */ initialStatus),
/* harmony export */   isNextTripStep: () => (/* binding */ isNextTripStep),
/* harmony export */   offerId: () => (/* binding */ offerId),
/* harmony export */   offerSeenSignal: () => (/* binding */ offerSeenSignal),
/* harmony export */   offerToDriverUpdate: () => (/* binding */ offerToDriverUpdate),
/* harmony export */   parseOfferId: () => (/* binding */ parseOfferId),
/* harmony export */   passengerHearsFromUs: () => (/* binding */ passengerHearsFromUs),
/* harmony export */   reportTripUpdate: () => (/* binding */ reportTripUpdate),
/* harmony export */   respondToOfferUpdate: () => (/* binding */ respondToOfferUpdate),
/* harmony export */   settleBookingUpdate: () => (/* binding */ settleBookingUpdate),
/* harmony export */   settlementKey: () => (/* binding */ settlementKey),
/* harmony export */   tripProgressSignal: () => (/* binding */ tripProgressSignal)
/* harmony export */ });
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/common */ "./node_modules/@temporalio/common/lib/index.js");
/* harmony import */ var _temporalio_common__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_common__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__);
// Everything the HTTP layer and the worker must agree on about the booking workflow, declared once.
// Imported by workflow code, so it stays free of Node built-ins and I/O.


const BOOKING_WORKFLOW_PREFIX = 'booking:';
function bookingWorkflowId(ref) {
    return `${BOOKING_WORKFLOW_PREFIX}${ref}`;
}
function bookingRefFromWorkflowId(workflowId) {
    return workflowId.startsWith(BOOKING_WORKFLOW_PREFIX) ? workflowId.slice(BOOKING_WORKFLOW_PREFIX.length) : null;
}
/** Published in the OpenAPI document; the Postgres record always holds one of these. */ const BOOKING_STATUSES = [
    'awaiting_confirmation',
    'scheduled',
    'dispatching',
    'offered',
    'assigned',
    'en_route',
    'arrived',
    'on_board',
    'completed',
    'cancelled',
    'unassigned',
    'no_show'
];
const TERMINAL_STATUSES = [
    'completed',
    'cancelled',
    'no_show'
];
/**
 * Dispatch tiers in cascade order: a job goes to the next tier only when the previous one has nobody
 * left to ask. The one declaration: workflow code and src/dispatch/policy.ts both import it.
 */ const TIERS = [
    'local',
    'national',
    'partner'
];
/** How many candidates a cascade fetches at a time: enough for minutes of offers, small in history. */ const CANDIDATE_PAGE_SIZE = 10;
/**
 * Search attributes every booking workflow carries, upserted on each status change, so ops can list
 * e.g. all unassigned bookings picking up in the next hour in the Web UI:
 *   BookingStatus = "unassigned" AND BookingPickupAt < "2026-11-23T18:00:00Z"
 * Registered on the dev server by `npm start` and the tests, and by the worker at start.
 */ const BookingSearchAttributes = {
    status: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingStatus', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD),
    pickupAt: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingPickupAt', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.DATETIME),
    driver: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingDriverId', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD),
    source: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingSource', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD),
    partner: (0,_temporalio_common__WEBPACK_IMPORTED_MODULE_0__.defineSearchAttributeKey)('BookingPartnerId', _temporalio_common__WEBPACK_IMPORTED_MODULE_0__.SearchAttributeType.KEYWORD)
};
/** The search attributes a booking starts with: the start request carries them, so no upsert is needed. */ function initialSearchAttributes(input, status) {
    return [
        {
            key: BookingSearchAttributes.status,
            value: status
        },
        {
            key: BookingSearchAttributes.pickupAt,
            value: new Date(input.job.pickupAt)
        },
        {
            key: BookingSearchAttributes.source,
            value: input.booking.source
        },
        ...input.booking.partnerId ? [
            {
                key: BookingSearchAttributes.partner,
                value: input.booking.partnerId
            }
        ] : []
    ];
}
/** The status a new booking starts in (the workflow and the start request agree on it). */ function initialStatus(input, nowMs) {
    if (input.awaitEmailConfirmation) return 'awaiting_confirmation';
    return Date.parse(input.job.pickupAt) - input.policy.dispatchLeadSeconds * 1000 <= nowMs ? 'dispatching' : 'scheduled';
}
function offerId(ref, round, driverId) {
    return `${ref}:${round}:${driverId}`;
}
function parseOfferId(id) {
    const m = /^([A-Z0-9-]+):(\d+):(.+)$/.exec(id);
    return m ? {
        ref: m[1],
        round: Number(m[2]),
        driverId: m[3]
    } : null;
}
/** The driver is on the way or further: the pickup and drop-off can no longer change. */ const DRIVER_ON_THE_WAY = [
    'en_route',
    'arrived',
    'on_board'
];
/**
 * The steps a trip really passes, from each status: forward only, and never from assigned straight
 * to completed. A driver already at the pickup when they accept may skip en_route.
 */ const NEXT_TRIP_STEPS = {
    assigned: [
        'en_route',
        'arrived'
    ],
    en_route: [
        'arrived'
    ],
    // Only a driver who is at the pickup can say the passenger did not come.
    arrived: [
        'on_board',
        'no_show'
    ],
    on_board: [
        'completed'
    ]
};
function isNextTripStep(from, to) {
    var _ref;
    var _NEXT_TRIP_STEPS_from;
    return (_ref = (_NEXT_TRIP_STEPS_from = NEXT_TRIP_STEPS[from]) === null || _NEXT_TRIP_STEPS_from === void 0 ? void 0 : _NEXT_TRIP_STEPS_from.includes(to)) !== null && _ref !== void 0 ? _ref : false;
}
const respondToOfferUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('respondToOffer');
const cancelBookingUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('cancelBooking');
const amendBookingUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('amendBooking');
/** Sent with update-with-start by every booking route: returns once the booking record exists. */ const bookingCreatedUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('bookingCreated');
const claimUpcomingJobUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('claimUpcomingJob');
/** Answers once the named driver's job card is out (or they were found busy: `offer` is then not theirs). */ const offerToDriverUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('offerToDriver');
/** Answers once the job card is out to the driver (or the driver was found busy: `offer` is then not theirs). */ const assignFleetDriverUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('assignFleetDriver');
const emailConfirmedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('emailConfirmed');
const offerSeenSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('offerSeen');
const driverDroppedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('driverDropped');
/**
 * Sent to every booking with an open job card or an active job of a driver staff just suspended
 * (workflows/drivers/suspension.ts). Idempotent: a second one for the same driver changes nothing.
 * A trip with the passenger on board is left to finish; ops are told and end it (endTripUpdate).
 */ const driverSuspendedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('driverSuspended');
/** Superseded by reportTripUpdate (which can refuse); kept for clients of the earlier release. */ const tripProgressSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('tripProgress');
/** The assigned driver's trip report; refused (out of history) when closed, not theirs or not the next step. */ const reportTripUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('reportTrip');
const bookingStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineQuery)('bookingState');
/**
 * What the passenger is told, by the booking's workflow, at each turn (tellPassenger). The driver
 * assigned and the cancel are told by the activities that record them (assignDriver,
 * cancelBooking).
 */ /** Booked through a partner, operator or supplier: their customer hears from them, not from us. */ const PARTNER_SOURCES = new Set([
    'partner',
    'operator',
    'supplier'
]);
function passengerHearsFromUs(source) {
    return !PARTNER_SOURCES.has(source);
}
/** How a passenger paid the driver (the service itself never takes payment). */ const PAYMENT_METHODS = [
    'cash',
    'card',
    'payment_link',
    'bank_transfer',
    'account'
];
/**
 * The method of a settlement ops made with nothing due (a trip they ended, e.g. after suspending its
 * driver): a payment record of 0 pence, so the trip is settled once and for all. Only ops write it.
 */ const NOTHING_DUE = 'none';
const SETTLEMENT_METHODS = [
    ...PAYMENT_METHODS,
    NOTHING_DUE
];
/** The idempotency key of a booking's settlement: one record however often it is retried. */ function settlementKey(ref) {
    return `settlement:${ref}`;
}
/** Settles a completed trip, once; answers the payment record. */ const settleBookingUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('settleBooking');
/**
 * Ops end a trip with the passenger on board (its driver suspended, their app broken): the trip is
 * completed and settled as ops say, in one step. A completed trip nobody has settled yet is
 * settled the same way. Refused for anything else.
 */ const endTripUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineUpdate)('endTrip');
/** The settlement an ops end records. */ function endTripSettlement(e) {
    const s = e.settlement;
    return 'nothingDue' in s ? {
        driverId: null,
        amountPence: 0,
        method: NOTHING_DUE,
        by: 'ops',
        note: `ended by ops: ${e.reason}; nothing due: ${s.nothingDue}`
    } : {
        driverId: null,
        amountPence: s.amountPence,
        method: s.method,
        by: 'ops',
        note: `ended by ops: ${e.reason}`
    };
}
/** ApplicationFailure types of booking updates; the HTTP layer maps them. */ const BookingFailure = {
    closed: 'BookingClosed',
    /** The reference is already another request's ride: the caller must allocate a fresh one. */ identityMismatch: 'BookingIdentityMismatch',
    /** A trip report from a driver the booking is not assigned to. */ notYourJob: 'NotYourJob',
    /** A trip report that is not the next step of the trip. */ invalidTripStep: 'InvalidTripStep',
    /** respondToOffer: the offer is no longer open and the job went to another driver. */ offerTaken: 'OfferTaken',
    /** respondToOffer: the offer is no longer open (timed out, withdrawn, booking closed). */ offerExpired: 'OfferExpired',
    /** respondToOffer: this driver already has the job (a repeated accept). */ offerAlreadyAccepted: 'OfferAlreadyAccepted',
    /** settleBooking: the trip has not completed, so there is nothing to settle yet. */ notCompleted: 'TripNotCompleted',
    /** settleBooking: an amount that cannot be a payment (negative, fractional, absurd). */ invalidPayment: 'InvalidPayment',
    /** assignFleetDriver: not an operator's booking, or not this operator's. */ notOperatorJob: 'NotOperatorJob',
    /** assignFleetDriver: a driver already has the job, or a job card is out waiting for an answer. */ alreadyAssigned: 'AlreadyAssigned',
    /** cancelBooking: the passenger is on board; only ops can end the trip (endTrip). */ tripInProgress: 'TripInProgress',
    /** endTrip: the passenger is not on board (and it is not a completed trip awaiting settlement). */ tripNotInProgress: 'TripNotInProgress',
    /** endTrip: the trip is already settled (by its driver, a provider or ops). */ alreadySettled: 'TripAlreadySettled',
    /** amendBooking: a new pickup or drop-off once the driver is on the way (DRIVER_ON_THE_WAY). */ driverOnTheWay: 'DriverOnTheWay',
    /** claimUpcomingJob: not a job the board offers (an operator's, awaiting the passenger's email, a card out, given back by this driver). */ notClaimable: 'NotClaimable',
    /** claimUpcomingJob: the claim found the driver busy then, or no longer fitting the job (seats, class, licence). */ driverDoesNotFit: 'DriverDoesNotFit'
};
/** The ApplicationFailure type of a fleet that could not be reached (retried). */ const EXCHANGE_FAILURE = 'ExchangeFleetUnavailable';
/** Sent by the booking-status hook; a repeated or older event changes nothing. */ const exchangeStatusSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_1__.defineSignal)('exchangeStatus');


/***/ },

/***/ "./workflows/bookings/v1/exchange.ts"
/*!*******************************************!*\
  !*** ./workflows/bookings/v1/exchange.ts ***!
  \*******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   EXCHANGE_PATCH: () => (/* binding */ EXCHANGE_PATCH),
/* harmony export */   cancelExchangeJob: () => (/* binding */ cancelExchangeJob),
/* harmony export */   followExchangeFleet: () => (/* binding */ followExchangeFleet),
/* harmony export */   handToExchangeFleet: () => (/* binding */ handToExchangeFleet),
/* harmony export */   heldByExchangeFleet: () => (/* binding */ heldByExchangeFleet),
/* harmony export */   installExchangeHandlers: () => (/* binding */ installExchangeHandlers),
/* harmony export */   sendAmendmentToExchangeFleet: () => (/* binding */ sendAmendmentToExchangeFleet)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./activities.js */ "./workflows/bookings/v1/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/v1/definitions.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// Exchange fleets (Cab Exchange, docs/exchange.md): when every tier of a round has nobody left to
// ask, the booking is handed to an approved partner fleet that runs this same API. It then waits for
// that fleet's status events (the booking-status hook signals them) instead of a driver's answer,
// moves our booking with them, sends the fleet our amendments, and tells it when we cancel. A fleet
// that gives the job back (cancels on its side) is never asked again; the cascade starts afresh.
;


/** Bookings started on code before the exchange never hand a job to a fleet (docs/versioning.md). */ const EXCHANGE_PATCH = 'exchange-fleets';
/** Past pickup, a fleet that has found no driver has this long before the job is taken back. */ const UNASSIGNED_GRACE_MS = 60 * 60000;
/** Handing a job over: a fleet that cannot take it within minutes is passed over. */ const handOver = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '3 minutes',
    retry: {
        initialInterval: '2 seconds',
        maximumInterval: '20 seconds'
    }
});
/** Amendments and cancels of a job a fleet holds: retried for an hour. */ const followUps = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '1 hour',
    retry: {
        initialInterval: '2 seconds',
        maximumInterval: '1 minute'
    }
});
/** The fleet's statuses that are steps of a trip: ours takes the same name. */ const TRIP_STATUSES = [
    'assigned',
    'en_route',
    'arrived',
    'on_board',
    'completed',
    'no_show'
];
/** Our statuses in which the fleet's driver holds the job. */ const WITH_DRIVER = [
    'assigned',
    'en_route',
    'arrived',
    'on_board'
];
/** The fleet's events, as the hook signals them: only the holding fleet's, only newer ones. */ function installExchangeHandlers(run) {
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_2__.exchangeStatusSignal, (e)=>{
        const x = run.state.exchange;
        if (!x || run.closed() || x.fleetId !== e.fleetId || e.sequence <= x.sequence) return;
        x.sequence = e.sequence;
        x.remoteStatus = e.status;
        x.driver = e.driver;
        x.pending = true;
    });
}
/** A fleet holds this booking's job: the cascade follows it instead of asking drivers. */ function heldByExchangeFleet(run) {
    var _run_state_exchange;
    return Boolean((_run_state_exchange = run.state.exchange) === null || _run_state_exchange === void 0 ? void 0 : _run_state_exchange.fleetId);
}
const fleetCandidate = (x)=>{
    var _ref, _x_fleetName;
    return {
        driverId: `exchange:${x.fleetId}`,
        driverName: (_ref = (_x_fleetName = x.fleetName) !== null && _x_fleetName !== void 0 ? _x_fleetName : x.fleetId) !== null && _ref !== void 0 ? _ref : '',
        distanceMeters: null
    };
};
function letGo(x) {
    Object.assign(x, {
        fleetId: null,
        fleetName: null,
        sequence: 0,
        remoteStatus: null,
        driver: null,
        pending: false,
        sent: null
    });
}
/** What the fleet was sent: the job, and the route and fare an amendment may change. */ const jobSent = (run)=>{
    var _ref, _ref1, _run_state_fare;
    var _run_state_pickup, _run_state_dropoff;
    const j = run.state.job;
    return JSON.stringify([
        j.pickupAt,
        j.passengers,
        j.vehicleType,
        j.wheelchair,
        j.notes,
        (_ref = (_run_state_pickup = run.state.pickup) === null || _run_state_pickup === void 0 ? void 0 : _run_state_pickup.label) !== null && _ref !== void 0 ? _ref : null,
        (_ref1 = (_run_state_dropoff = run.state.dropoff) === null || _run_state_dropoff === void 0 ? void 0 : _run_state_dropoff.label) !== null && _ref1 !== void 0 ? _ref1 : null,
        (_run_state_fare = run.state.fare) !== null && _run_state_fare !== void 0 ? _run_state_fare : null
    ]);
};
/**
 * Every tier exhausted: the next approved fleet not yet asked gets the job. 'exhausted' when none
 * is left (or none takes it); otherwise the job is followed at the fleet.
 */ async function handToExchangeFleet(run) {
    var _run_state, _exchange;
    if (!(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(EXCHANGE_PATCH)) return 'exhausted';
    const x = (_exchange = (_run_state = run.state).exchange) !== null && _exchange !== void 0 ? _exchange : _run_state.exchange = {
        fleetId: null,
        fleetName: null,
        tried: [],
        sequence: 0,
        remoteStatus: null,
        driver: null,
        pending: false,
        sent: null
    };
    for(;;){
        if (run.interrupted()) return 'interrupted';
        const next = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.nextExchangeFleet({
            ref: run.ref,
            tried: x.tried
        });
        if (!next) return 'exhausted';
        x.tried.push(next.fleetId);
        // Held before it is sent: the fleet's first events can arrive before its answer does.
        Object.assign(x, {
            fleetId: next.fleetId,
            fleetName: next.name,
            sequence: 0,
            remoteStatus: null,
            driver: null,
            pending: false,
            sent: jobSent(run)
        });
        const c = fleetCandidate(x);
        run.record('partner', c, 'offered');
        let sent;
        try {
            sent = await handOver.sendExchangeJob({
                ref: run.ref,
                fleetId: next.fleetId,
                action: 'new'
            });
        } catch (unused) {
            // Unreachable: passed over. It may have booked the job before we gave up, so it is told to cancel (best effort).
            await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.endExchangeJob({
                ref: run.ref,
                fleetId: next.fleetId,
                state: 'failed',
                reason: 'unreachable'
            });
            run.record('partner', c, 'skipped', 'fleet_unreachable');
            letGo(x);
            await handOver.sendExchangeJob({
                ref: run.ref,
                fleetId: next.fleetId,
                action: 'cancel'
            }).catch(()=>undefined);
            continue;
        }
        if (sent.outcome === 'rejected') {
            run.record('partner', c, 'declined', sent.code);
            letGo(x);
            continue;
        }
        await run.setStatus('offered');
        return followExchangeFleet(run);
    }
}
/**
 * The job is with a fleet: wait for its next event, an amendment to send it, or anything the main
 * loop must deal with (a cancel, an amendment to apply first). Returns to the main loop after each
 * step, so whatever arrived meanwhile is dealt with in the usual order.
 */ async function followExchangeFleet(run) {
    const x = run.state.exchange;
    // Back from a wait that set our status aside (a pickup amended beyond the dispatch lead waited as
    // scheduled): the fleet's last word stands again.
    if (run.state.status !== 'offered' && !WITH_DRIVER.includes(run.state.status)) {
        var _x_remoteStatus;
        const last = (_x_remoteStatus = x.remoteStatus) !== null && _x_remoteStatus !== void 0 ? _x_remoteStatus : '';
        await run.setStatus(WITH_DRIVER.includes(last) ? last : 'offered');
    }
    const withDriver = ()=>WITH_DRIVER.includes(run.state.status);
    const jobChanged = ()=>x.sent !== jobSent(run);
    const wake = ()=>x.pending || run.interrupted() || jobChanged();
    let woke = true;
    if (withDriver()) await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(wake);
    else woke = await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(wake, Math.max(1000, Date.parse(run.state.job.pickupAt) + UNASSIGNED_GRACE_MS - Date.now()));
    if (!woke) {
        const fleetId = x.fleetId;
        run.record('partner', fleetCandidate(x), 'timed_out', 'no_driver_at_fleet');
        letGo(x);
        await followUps.sendExchangeJob({
            ref: run.ref,
            fleetId,
            action: 'cancel'
        }).catch(()=>undefined);
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.endExchangeJob({
            ref: run.ref,
            fleetId,
            state: 'released',
            reason: 'no driver by pickup'
        });
        return 'exhausted';
    }
    // A cancel goes through the main loop (cancelExchangeJob tells the fleet); amendments are applied there first.
    if (run.interrupted()) return 'interrupted';
    if (jobChanged()) {
        await sendAmendmentToExchangeFleet(run);
        return 'interrupted';
    }
    x.pending = false;
    return applyFleetStatus(run, x);
}
/**
 * Our booking was amended (the main loop calls this once the amendment is written): the fleet
 * holding the job is sent it at once, whatever our booking waits for next. Nothing when no fleet
 * holds the job, or it already has this version.
 */ async function sendAmendmentToExchangeFleet(run) {
    const x = run.state.exchange;
    if (!(x === null || x === void 0 ? void 0 : x.fleetId) || x.sent === jobSent(run)) return;
    x.sent = jobSent(run);
    try {
        const r = await followUps.sendExchangeJob({
            ref: run.ref,
            fleetId: x.fleetId,
            action: 'amend'
        });
        if (r.outcome === 'rejected') _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('exchange fleet refused an amendment', {
            ref: run.ref,
            fleetId: x.fleetId,
            code: r.code
        });
    } catch (unused) {
        _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('exchange fleet unreachable for an amendment', {
            ref: run.ref,
            fleetId: x.fleetId
        });
    }
}
/** The fleet's latest status, applied to our booking. */ async function applyFleetStatus(run, x) {
    var _x_remoteStatus;
    const fleetId = x.fleetId;
    const c = fleetCandidate(x);
    const remote = (_x_remoteStatus = x.remoteStatus) !== null && _x_remoteStatus !== void 0 ? _x_remoteStatus : '';
    if (remote === 'cancelled') {
        // The fleet gave the job back: the cascade starts afresh, without it.
        run.record('partner', c, 'dropped', 'fleet_cancelled');
        letGo(x);
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.endExchangeJob({
            ref: run.ref,
            fleetId,
            state: 'released',
            reason: 'cancelled by the fleet'
        });
        await run.setStatus('dispatching');
        return 'interrupted';
    }
    const wasWithDriver = WITH_DRIVER.includes(run.state.status);
    // A trip step is ours too; anything else (its driver gave the job back, it is looking again) is
    // "offered" to the fleet once more, and leaves us as we were before it found a driver.
    const status = TRIP_STATUSES.includes(remote) ? remote : wasWithDriver ? 'offered' : null;
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.applyExchangeStatus({
        ref: run.ref,
        fleetId,
        sequence: x.sequence,
        remoteStatus: remote,
        status,
        driver: status && TRIP_STATUSES.includes(status) ? x.driver : null
    });
    if (status && status !== run.state.status) {
        var _ref;
        var _x_driver;
        if (status === 'assigned' || !wasWithDriver && TRIP_STATUSES.includes(status)) run.record('partner', _object_spread_props(_object_spread({}, c), {
            driverName: (_ref = (_x_driver = x.driver) === null || _x_driver === void 0 ? void 0 : _x_driver.name) !== null && _ref !== void 0 ? _ref : c.driverName
        }), 'accepted');
        if (wasWithDriver && status === 'offered') run.record('partner', c, 'dropped', 'fleet_driver_dropped');
        run.markStatus(status);
    }
    return status === 'assigned' ? 'assigned' : 'interrupted';
}
/** Our booking is cancelled: the fleet holding its job is told (after our record, so nobody waits on it). */ async function cancelExchangeJob(run) {
    const x = run.state.exchange;
    if (!(x === null || x === void 0 ? void 0 : x.fleetId)) return;
    const fleetId = x.fleetId;
    letGo(x);
    try {
        await followUps.sendExchangeJob({
            ref: run.ref,
            fleetId,
            action: 'cancel'
        });
    } catch (unused) {
        _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.log.warn('exchange fleet unreachable for a cancel', {
            ref: run.ref,
            fleetId
        });
    }
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.endExchangeJob({
        ref: run.ref,
        fleetId,
        state: 'cancelled'
    });
}


/***/ },

/***/ "./workflows/bookings/v1/group-offer.ts"
/*!**********************************************!*\
  !*** ./workflows/bookings/v1/group-offer.ts ***!
  \**********************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   GROUP_OFFERS: () => (/* binding */ GROUP_OFFERS),
/* harmony export */   OfferGroup: () => (/* binding */ OfferGroup),
/* harmony export */   hasOfferPolicy: () => (/* binding */ hasOfferPolicy)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./activities.js */ "./workflows/bookings/v1/activities.ts");
/* harmony import */ var _offer_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./offer.js */ "./workflows/bookings/v1/offer.ts");
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./run.js */ "./workflows/bookings/v1/run.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
// The offer policy (issue 25, docs/dispatch.md "Offer policy"): up to offerGroupSize drivers hold
// the job card at once, each card withdrawn as soon as it is declined, or left unopened for
// offerUnseenSeconds, or opened and left unanswered for offerTimeoutSeconds; a freed place goes to
// the next driver at once. The first acceptance to reach the workflow wins: the workflow assigns
// exactly one driver (its messages are handled one at a time) and Postgres holds one open card per
// driver (claimOffer), so a booking never gets two drivers nor a driver two jobs. The others'
// cards are withdrawn and they are told at once, by WhatsApp and the app, never by SMS.
;



/**
 * Patch (issue 25): bookings whose policy carries the offer policy's knobs (offerGroupSize,
 * offerUnseenSeconds) run their cascade rounds through OfferGroup: several cards open at once,
 * an unopened card withdrawn early, the others told when one driver wins (tellJobCardTaken).
 * Bookings started without the knobs keep one driver at a time for the full window.
 */ const GROUP_OFFERS = 'group-offers';
/** Whether this booking was started under the offer policy (its knobs are in its input). */ function hasOfferPolicy(run) {
    return run.policy.offerGroupSize !== undefined || run.policy.offerUnseenSeconds !== undefined;
}
class OfferGroup {
    /** How many drivers may hold the card at once (1: one at a time, as before the policy). */ get capacity() {
        var _this_run_policy_offerGroupSize;
        return Math.max(1, Math.floor((_this_run_policy_offerGroupSize = this.run.policy.offerGroupSize) !== null && _this_run_policy_offerGroupSize !== void 0 ? _this_run_policy_offerGroupSize : 1));
    }
    get size() {
        return this.open.length;
    }
    get fullMs() {
        return this.run.policy.offerTimeoutSeconds * 1000;
    }
    get unseenMs() {
        var _this_run_policy_offerUnseenSeconds;
        return Math.min(this.fullMs, ((_this_run_policy_offerUnseenSeconds = this.run.policy.offerUnseenSeconds) !== null && _this_run_policy_offerUnseenSeconds !== void 0 ? _this_run_policy_offerUnseenSeconds : this.run.policy.offerTimeoutSeconds) * 1000);
    }
    /** The cards out, as the handlers and the query see them (`offer` is the first). */ sync() {
        var _offers_;
        const offers = this.open.map((o)=>o.offer);
        this.run.state.group = offers.length > 0 ? offers : null;
        this.run.state.offer = (_offers_ = offers[0]) !== null && _offers_ !== void 0 ? _offers_ : null;
    }
    /**
   * The card out to one more driver (already claimed in Postgres). Only a driver who is alone in
   * holding the card is texted: one joining others may see it taken before they read it, and each
   * SMS costs them 2p. False when the card could not be delivered (their claim is let go).
   */ async add(m) {
        const { run } = this;
        const offer = {
            offerId: m.offerId,
            driverId: m.candidate.driverId,
            round: run.state.round,
            tier: m.tier,
            expiresAt: m.expiresAt,
            response: null,
            seen: false
        };
        const texted = this.open.length === 0;
        this.open.push({
            member: m,
            offer,
            outAtMs: Date.now()
        });
        this.sync();
        run.record(m.tier, m.candidate, 'offered');
        const card = _object_spread({
            offerId: m.offerId,
            ref: run.ref,
            driverId: m.candidate.driverId
        }, texted ? {} : {
            sms: false
        });
        if (!await (0,_offer_js__WEBPACK_IMPORTED_MODULE_2__.cardDelivered)(this.jobCards, card, m.cardSent)) {
            this.remove(m.offerId);
            await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                offerId: m.offerId,
                status: 'withdrawn'
            });
            run.record(m.tier, m.candidate, 'skipped', 'job_card_undeliverable');
            return false;
        }
        // The window runs from when the card is out, not from the claim.
        const o = this.open.find((x)=>x.offer.offerId === m.offerId);
        if (o) o.outAtMs = Date.now();
        run.markStatus('offered');
        return true;
    }
    remove(offerId) {
        const i = this.open.findIndex((o)=>o.offer.offerId === offerId);
        if (i >= 0) this.open.splice(i, 1);
        this.sync();
    }
    deadline(o) {
        return o.outAtMs + (o.offer.seen ? this.fullMs : this.unseenMs);
    }
    /**
   * Waits until something changes the group: a driver won the job ('assigned'), a place was freed
   * (a decline, a card unopened or unanswered in its time, a driver suspended: 'freed'), or the main
   * loop must act (every card withdrawn: 'withdrawn'). An acceptance that reached the workflow
   * before the card's time ran out counts, as with one driver at a time.
   */ async wait() {
        const { run } = this;
        for(;;){
            let freed = false;
            for (const o of [
                ...this.open
            ]){
                if (!run.isSuspended(o.offer.driverId)) continue;
                this.remove(o.offer.offerId);
                await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                    offerId: o.offer.offerId,
                    status: 'withdrawn'
                });
                run.record(o.member.tier, o.member.candidate, 'withdrawn', 'driver_suspended');
                freed = true;
            }
            // The first acceptance to arrive, among the cards still open.
            const winnerId = run.acceptances.find((id)=>this.open.some((o)=>o.offer.offerId === id && o.offer.response === 'accepted'));
            const winner = winnerId ? this.open.find((o)=>o.offer.offerId === winnerId) : undefined;
            if (winner) {
                await this.award(winner);
                return 'assigned';
            }
            for (const o of [
                ...this.open
            ]){
                if (o.offer.response !== 'declined') continue;
                this.remove(o.offer.offerId);
                await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                    offerId: o.offer.offerId,
                    status: 'declined'
                });
                run.record(o.member.tier, o.member.candidate, 'declined');
                freed = true;
            }
            if (run.interrupted()) {
                await this.withdrawAll();
                return 'withdrawn';
            }
            const now = Date.now();
            for (const o of [
                ...this.open
            ]){
                if (now < this.deadline(o)) continue;
                this.remove(o.offer.offerId);
                await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                    offerId: o.offer.offerId,
                    status: 'timed_out'
                });
                // 'unseen': never opened, withdrawn at the short cut; an opened card ran its full window.
                run.record(o.member.tier, o.member.candidate, 'timed_out', o.offer.seen ? null : 'unseen');
                freed = true;
            }
            if (freed || this.open.length === 0) return 'freed';
            const next = Math.min(...this.open.map((o)=>this.deadline(o)));
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.interrupted() || this.open.some((o)=>o.offer.response !== null || run.isSuspended(o.offer.driverId)), Math.max(1, next - Date.now()));
        }
    }
    /**
   * The winner is assigned first (so every later answer hears the job is taken), then every other
   * card is withdrawn and its driver told; only then do the others' updates answer ('taken').
   */ async award(w) {
        const { run } = this;
        const driverId = w.offer.driverId;
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.assignDriver({
            ref: run.ref,
            driverId,
            offerId: w.offer.offerId
        });
        run.assigned(driverId);
        run.record(w.member.tier, w.member.candidate, 'accepted');
        const losers = this.open.filter((o)=>o !== w);
        for (const o of losers){
            await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                offerId: o.offer.offerId,
                status: 'withdrawn'
            });
            run.record(o.member.tier, o.member.candidate, 'withdrawn', _run_js__WEBPACK_IMPORTED_MODULE_3__.TAKEN_BY_ANOTHER);
        }
        await Promise.all(losers.map((o)=>_activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.tellJobCardTaken({
                offerId: o.offer.offerId,
                ref: run.ref,
                driverId: o.offer.driverId
            })));
        this.open.length = 0;
        this.sync();
        run.state.offer = null;
    }
    /** Something interrupted the round: every card out is withdrawn before the main loop acts. */ async withdrawAll() {
        const { run } = this;
        for (const o of [
            ...this.open
        ]){
            this.remove(o.offer.offerId);
            await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
                offerId: o.offer.offerId,
                status: 'withdrawn'
            });
            run.record(o.member.tier, o.member.candidate, 'withdrawn');
        }
    }
    constructor(run, jobCards){
        _define_property(this, "run", void 0);
        _define_property(this, "jobCards", void 0);
        _define_property(this, "open", void 0);
        this.run = run;
        this.jobCards = jobCards;
        this.open = [];
    }
}


/***/ },

/***/ "./workflows/bookings/v1/handlers.ts"
/*!*******************************************!*\
  !*** ./workflows/bookings/v1/handlers.ts ***!
  \*******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   MAX_SETTLEMENT_PENCE: () => (/* binding */ MAX_SETTLEMENT_PENCE),
/* harmony export */   installHandlers: () => (/* binding */ installHandlers)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/v1/definitions.ts");
// What a booking answers while it runs: the query, the updates and the signals. Each handler checks
// the message (validators refuse without entering history) and hands it to the main loop through
// the run; updates answer once the main loop has acted on them.


/** Far above any taxi fare: a typo in the amount, not a payment. */ const MAX_SETTLEMENT_PENCE = 1000000;
function installHandlers(run) {
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.bookingStateQuery, ()=>run.state);
    handleCreation(run);
    handleOfferAnswers(run);
    handleCancelAndAmend(run);
    handleFleetPicks(run);
    handleDriverMessages(run);
    handleBoardClaims(run);
    handleTripReports(run);
    handleSettlement(run);
}
const refuse = (message, type)=>_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure.nonRetryable(message, type);
function refuseIfClosed(run) {
    if (run.closed()) throw refuse(`booking ${run.ref} is ${run.state.status}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.closed);
}
function handleCreation(run) {
    ;(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.bookingCreatedUpdate, async ()=>{
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.persisted);
        return run.state;
    }, {
        // A random reference can, however rarely, already name another request's ride: joining it
        // would hand a stranger someone else's booking.
        validator: (created)=>{
            const mine = run.input.booking.identity;
            if ((created === null || created === void 0 ? void 0 : created.identity) && mine && created.identity !== mine) {
                throw refuse(`booking ${run.ref} was made for another request`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.identityMismatch);
            }
        }
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.emailConfirmedSignal, ()=>{
        run.emailConfirmed = true;
    });
}
function handleOfferAnswers(run) {
    const state = run.state;
    /** The open card this answer is for: one of a group's, or the one card out. */ const openOffer = (r)=>run.openOffers().find((o)=>o.offerId === r.offerId && o.driverId === r.driverId);
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.respondToOfferUpdate, async (r)=>{
        const offer = openOffer(r);
        if (!offer) {
            if (state.driverId === r.driverId) return 'accepted';
            return state.driverId !== null ? 'taken' : 'expired';
        }
        if (offer.response) return offer.response;
        if (r.decision === 'decline') {
            offer.response = 'declined';
            return 'declined';
        }
        offer.response = 'accepted';
        // In a group offer several may accept in one task: the first to arrive wins (group-offer.ts).
        run.acceptances.push(r.offerId);
        // Answer only once the assignment is recorded, so the driver and every lookup agree.
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>!openOffer(r));
        if (state.driverId === r.driverId) return 'accepted';
        // Another driver of the group accepted first: told plainly, not that the offer ran out.
        return state.driverId !== null ? 'taken' : 'expired';
    }, {
        // Stale clicks (an old card, a job already gone) are answered without entering history.
        validator: (r)=>{
            if (openOffer(r)) return;
            if (state.driverId === r.driverId) throw refuse(`driver ${r.driverId} already has booking ${run.ref}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.offerAlreadyAccepted);
            if (state.driverId !== null) throw refuse(`booking ${run.ref} went to another driver`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.offerTaken);
            throw refuse(`offer ${r.offerId} is no longer open`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.offerExpired);
        }
    });
    // The driver opened the card: it is given the full window (group-offer.ts). Stale ones change nothing.
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.offerSeenSignal, (r)=>{
        const offer = openOffer(r);
        if (offer) offer.seen = true;
    });
}
function handleCancelAndAmend(run) {
    ;(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.cancelBookingUpdate, async (c)=>{
        if (run.state.status !== 'cancelled') {
            var _run, _cancelRequest;
            (_cancelRequest = (_run = run).cancelRequest) !== null && _cancelRequest !== void 0 ? _cancelRequest : _run.cancelRequest = c;
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.state.status === 'cancelled');
        }
        return run.state;
    }, {
        validator: (_c)=>{
            const status = run.state.status;
            if (status === 'completed' || status === 'no_show') throw refuse(`booking ${run.ref} is ${status}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.closed);
            // Whoever asks: a trip under way is ended by ops (endTrip), never cancelled into "nothing due".
            // (A boarding report not yet applied counts: it was accepted first.)
            if (status === 'on_board' || run.progress === 'on_board') {
                throw refuse(`booking ${run.ref}: the passenger is on board, the trip cannot be cancelled`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.tripInProgress);
            }
        }
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.amendBookingUpdate, async (a)=>{
        const ticket = ++run.amendmentsReceived;
        run.amendments.push(a);
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.amendmentsApplied >= ticket || run.closed());
        return run.state;
    }, {
        validator: (a)=>{
            refuseIfClosed(run);
            // A new pickup or drop-off only while no driver is on the way (a report accepted but not yet applied counts).
            if (a.route && (_definitions_js__WEBPACK_IMPORTED_MODULE_1__.DRIVER_ON_THE_WAY.includes(run.state.status) || run.progress !== null && run.progress !== 'no_show')) {
                throw refuse(`booking ${run.ref} is ${run.state.status}: the driver is on the way, the pickup and drop-off cannot change`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.driverOnTheWay);
            }
        }
    });
}
function handleFleetPicks(run) {
    ;(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.assignFleetDriverUpdate, async (pick)=>{
        run.fleetPick = pick;
        const served = run.fleetPicksServed;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.fleetPicksServed > served || run.closed());
        return run.state;
    }, {
        validator: (pick)=>{
            if (!run.operatorId || pick.operatorId !== run.operatorId) throw refuse(`booking ${run.ref} is not this operator's job`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notOperatorJob);
            refuseIfClosed(run);
            if (run.state.driverId !== null || run.state.offer !== null || run.fleetPick !== null) {
                throw refuse(`booking ${run.ref} already has a driver or an open job card`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.alreadyAssigned);
            }
        }
    });
}
function handleDriverMessages(run) {
    ;(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.offerToDriverUpdate, async (pick)=>{
        run.opsPick = pick;
        const served = run.opsPicksServed;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.opsPicksServed > served || run.closed());
        return run.state;
    }, {
        validator: (pick)=>{
            refuseIfClosed(run);
            if (run.operatorId) throw refuse(`booking ${run.ref} is an operator's job: its operator picks the driver`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notOperatorJob);
            if (run.cancelRequest !== null) throw refuse(`booking ${run.ref} is being cancelled`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.closed);
            if (run.state.driverId !== null || run.opsPick !== null) {
                throw refuse(`booking ${run.ref} already has a driver (take the job off them first) or a driver named for it`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.alreadyAssigned);
            }
            if (!pick.driverId) throw refuse('name a driver', _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notYourJob);
        }
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.driverDroppedSignal, (d)=>{
        if (d.driverId === run.state.driverId) run.drop = d;
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.driverSuspendedSignal, ({ driverId })=>{
        var _run_state, _suspendedDriverIds;
        // Remembered even when the driver has neither the card nor the job yet: an accept racing the
        // suspension is taken off them as soon as it lands (the main loop and the cascade check).
        if (run.closed() || run.isSuspended(driverId)) return;
        ((_suspendedDriverIds = (_run_state = run.state).suspendedDriverIds) !== null && _suspendedDriverIds !== void 0 ? _suspendedDriverIds : _run_state.suspendedDriverIds = []).push(driverId);
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.tripProgressSignal, (p)=>{
        if (p.driverId === run.state.driverId) run.progress = p.progress;
    });
}
/**
 * A driver takes the job from the upcoming-jobs board. The validator refuses what is plainly not
 * theirs to take; the handler checks again, since two claims can both pass their validators in the
 * same workflow task, and the first one in wins. A repeat by the driver who has it answers their
 * offer again (a retried request, a second tap).
 */ function handleBoardClaims(run) {
    const state = run.state;
    /** The offer through which this driver holds the job now, if they do. */ const heldOffer = (driverId)=>{
        if (state.driverId !== driverId) return null;
        const known = run.boardClaims.get(driverId);
        if (known && 'offerId' in known) return known;
        const accepted = state.candidates.findLast((c)=>c.driverId === driverId && c.outcome === 'accepted');
        return accepted ? {
            offerId: (0,_definitions_js__WEBPACK_IMPORTED_MODULE_1__.offerId)(run.ref, accepted.round, driverId)
        } : null;
    };
    const refuseTaken = ()=>refuse(`booking ${run.ref} has already been taken by another driver`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.alreadyAssigned);
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.claimUpcomingJobUpdate, async (c)=>{
        var _ref;
        const held = heldOffer(c.driverId);
        if (held) return held;
        if (run.boardClaim === null) {
            var _state_exchange;
            if (state.driverId !== null || state.offer !== null || ((_state_exchange = state.exchange) === null || _state_exchange === void 0 ? void 0 : _state_exchange.fleetId)) throw refuseTaken();
            // (What became of an earlier claim of theirs, refused, is not this one's answer.)
            run.boardClaims.delete(c.driverId);
            run.boardClaim = c;
        } else if (run.boardClaim.driverId !== c.driverId) {
            throw refuseTaken();
        }
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.boardClaims.has(c.driverId) || run.closed());
        const outcome = run.boardClaims.get(c.driverId);
        if (outcome && 'offerId' in outcome) return outcome;
        if (run.closed()) throw refuse(`booking ${run.ref} is ${state.status}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.closed);
        if ((outcome === null || outcome === void 0 ? void 0 : outcome.refused) === 'taken') throw refuseTaken();
        throw refuse(`you cannot take booking ${run.ref}: ${(_ref = outcome === null || outcome === void 0 ? void 0 : outcome.refused) !== null && _ref !== void 0 ? _ref : 'refused'}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.driverDoesNotFit);
    }, {
        validator: (c)=>{
            var _state_exchange;
            refuseIfClosed(run);
            if (heldOffer(c.driverId)) return;
            if (run.cancelRequest !== null) throw refuse(`booking ${run.ref} is being cancelled`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.closed);
            if (state.driverId !== null || ((_state_exchange = state.exchange) === null || _state_exchange === void 0 ? void 0 : _state_exchange.fleetId)) throw refuseTaken();
            if (run.boardClaim !== null && run.boardClaim.driverId !== c.driverId) throw refuseTaken();
            if (run.operatorId) throw refuse(`booking ${run.ref} is an operator's job: its operator picks the driver`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notClaimable);
            if (!run.emailConfirmed) throw refuse(`booking ${run.ref} is waiting for the passenger to confirm it`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notClaimable);
            if (state.offer !== null) throw refuse(`booking ${run.ref} is being offered to a driver right now`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notClaimable);
            if (state.droppedDriverIds.includes(c.driverId)) throw refuse(`you gave booking ${run.ref} back: it is not offered to you again`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notClaimable);
            if (run.isSuspended(c.driverId)) throw refuse(`booking ${run.ref} cannot go to a suspended driver`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notClaimable);
            if (!c.driverId) throw refuse('name a driver', _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notYourJob);
        }
    });
}
function handleTripReports(run) {
    const state = run.state;
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.reportTripUpdate, async (r)=>{
        if (r.event === 'drop') {
            run.drop = {
                driverId: r.driverId,
                reason: 'dropped'
            };
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>state.driverId !== r.driverId || run.closed());
            return state.status;
        }
        if (r.event === 'confirm') {
            state.confirmedDriverId = r.driverId;
            return state.status;
        }
        if (state.status !== r.event) run.progress = r.event;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>state.status === r.event || state.driverId !== r.driverId || run.closed());
        return state.status;
    }, {
        validator: (r)=>{
            refuseIfClosed(run);
            // A cancel accepted first wins: a boarding report after it must not leave a cancelled trip on board.
            if (run.cancelRequest !== null) throw refuse(`booking ${run.ref} is being cancelled`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.closed);
            if (state.driverId !== r.driverId) throw refuse(`booking ${run.ref} is not assigned to ${r.driverId}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notYourJob);
            if (r.event === 'drop') {
                if (state.status === 'on_board') throw refuse('the passenger is on board: finish the trip instead', _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.invalidTripStep);
                return;
            }
            // Confirming is for a job held and not yet started; once on the way, the trip speaks for itself.
            if (r.event === 'confirm') {
                if (![
                    'assigned',
                    'en_route',
                    'arrived'
                ].includes(state.status)) throw refuse(`booking ${run.ref} is ${state.status}: nothing to confirm`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.invalidTripStep);
                return;
            }
            // A repeated report of the current step is a retry, not a mistake.
            if (r.event === state.status) return;
            if (!(0,_definitions_js__WEBPACK_IMPORTED_MODULE_1__.isNextTripStep)(state.status, r.event)) {
                var _NEXT_TRIP_STEPS_state_status;
                const next = ((_NEXT_TRIP_STEPS_state_status = _definitions_js__WEBPACK_IMPORTED_MODULE_1__.NEXT_TRIP_STEPS[state.status]) !== null && _NEXT_TRIP_STEPS_state_status !== void 0 ? _NEXT_TRIP_STEPS_state_status : []).join(' or ') || 'nowhere';
                throw refuse(`a trip goes ${state.status} -> ${next}, not ${r.event}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.invalidTripStep);
            }
        }
    });
}
function refuseIfNotAPayment(amountPence) {
    if (!Number.isInteger(amountPence) || amountPence < 0 || amountPence > MAX_SETTLEMENT_PENCE) {
        throw refuse(`amount ${amountPence} pence is not a payment`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.invalidPayment);
    }
}
function handleSettlement(run) {
    const state = run.state;
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.settleBookingUpdate, async (input)=>{
        var // The first confirmation is the settlement; a repeat (a retry, a second tap) gets its record.
        _run, _settlement;
        (_settlement = (_run = run).settlement) !== null && _settlement !== void 0 ? _settlement : _run.settlement = input;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>state.payment != null);
        return state.payment;
    }, {
        validator: (input)=>{
            if (state.status !== 'completed') throw refuse(`booking ${run.ref} is ${state.status}: only a completed trip is settled`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notCompleted);
            if (input.by === 'driver' && input.driverId !== state.driverId) throw refuse(`booking ${run.ref} is not assigned to ${input.driverId}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.notYourJob);
            refuseIfNotAPayment(input.amountPence);
        }
    });
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.endTripUpdate, async (e)=>{
        const endedNow = state.ended == null;
        if (endedNow) {
            state.ended = {
                by: 'ops',
                reason: e.reason
            };
            run.settlement = (0,_definitions_js__WEBPACK_IMPORTED_MODULE_1__.endTripSettlement)(e);
            if (state.status === 'on_board') run.progress = 'completed';
        }
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>state.payment != null);
        return {
            payment: state.payment,
            endedNow
        };
    }, {
        validator: (e)=>{
            if (state.ended != null) return; // a retry: answered with the record it wrote
            const awaitingSettlement = state.status === 'completed' && state.payment == null && run.settlement === null;
            if (state.status === 'completed' && !awaitingSettlement) throw refuse(`booking ${run.ref} is already settled`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.alreadySettled);
            if (state.status !== 'on_board' && !awaitingSettlement) {
                throw refuse(`booking ${run.ref} is ${state.status}: only a trip with the passenger on board is ended`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.BookingFailure.tripNotInProgress);
            }
            const s = e.settlement;
            if (!('nothingDue' in s)) refuseIfNotAPayment(s.amountPence);
        }
    });
}


/***/ },

/***/ "./workflows/bookings/v1/offer.ts"
/*!****************************************!*\
  !*** ./workflows/bookings/v1/offer.ts ***!
  \****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   cardDelivered: () => (/* binding */ cardDelivered),
/* harmony export */   offerJob: () => (/* binding */ offerJob)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./activities.js */ "./workflows/bookings/v1/activities.ts");
// The offer loop every driver goes through, whichever tier found them or whether an operator picked
// them: the job card out, the answer awaited for the offer's time, and the outcome recorded.


async function offerJob(run, jobCards, o) {
    var _ref;
    var _o_onCardOut, _run_state_offer;
    const { tier, candidate: c, offerId: id } = o;
    const driverId = c.driverId;
    run.offered({
        offerId: id,
        driverId,
        round: o.round,
        tier,
        expiresAt: o.expiresAt
    });
    run.record(tier, c, 'offered');
    if (!await cardDelivered(jobCards, {
        offerId: id,
        ref: run.ref,
        driverId
    }, o.cardSent)) {
        // Undeliverable, or not delivered within the offer's own time: the caller moves on.
        run.state.offer = null;
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
            offerId: id,
            status: 'withdrawn'
        });
        run.record(tier, c, 'skipped', 'job_card_undeliverable');
        return 'undeliverable';
    }
    // Offered once the card is out (and its search attribute off the path to the card).
    run.markStatus('offered');
    (_o_onCardOut = o.onCardOut) === null || _o_onCardOut === void 0 ? void 0 : _o_onCardOut.call(o);
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>{
        var _run_state_offer;
        return ((_run_state_offer = run.state.offer) === null || _run_state_offer === void 0 ? void 0 : _run_state_offer.response) != null || run.interrupted() || run.isSuspended(driverId);
    }, run.policy.offerTimeoutSeconds * 1000);
    // Suspended while the card was out: withdrawn at once, whatever they answered, and the caller
    // moves on without waiting for the offer's time to run out.
    if (run.isSuspended(driverId)) {
        run.state.offer = null;
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
            offerId: id,
            status: 'withdrawn'
        });
        run.record(tier, c, 'withdrawn', 'driver_suspended');
        return 'suspended';
    }
    // An accept that raced the timer still counts: it arrived before we moved on.
    const response = (_ref = (_run_state_offer = run.state.offer) === null || _run_state_offer === void 0 ? void 0 : _run_state_offer.response) !== null && _ref !== void 0 ? _ref : null;
    if (response === 'accepted') {
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.assignDriver({
            ref: run.ref,
            driverId,
            offerId: id
        });
        run.assigned(driverId);
        run.record(tier, c, 'accepted');
        return 'assigned';
    }
    const outcome = response === 'declined' ? 'declined' : run.interrupted() ? 'withdrawn' : 'timed_out';
    run.state.offer = null;
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.closeOffer({
        offerId: id,
        status: outcome
    });
    run.record(tier, c, outcome);
    return outcome;
}
/** Sends the card, unless it went with the claim already; false when it could not be delivered. */ async function cardDelivered(jobCards, card, sentWithClaim) {
    if (sentWithClaim) return sentWithClaim === 'sent';
    try {
        await jobCards.sendJobCard(card);
        return true;
    } catch (err) {
        if (!cardNotDelivered(err)) throw err;
        return false;
    }
}
/**
 * A job card that failed for good or ran out of its offer's time. A full activity's failure comes
 * wrapped in an ActivityFailure; a local activity's arrives as the failure itself (the card's
 * ApplicationFailure, or the TimeoutFailure of its schedule-to-close).
 */ function cardNotDelivered(err) {
    return err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ActivityFailure || err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure || err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.TimeoutFailure;
}


/***/ },

/***/ "./workflows/bookings/v1/run.ts"
/*!**************************************!*\
  !*** ./workflows/bookings/v1/run.ts ***!
  \**************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BookingRun: () => (/* binding */ BookingRun),
/* harmony export */   TAKEN_BY_ANOTHER: () => (/* binding */ TAKEN_BY_ANOTHER)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./activities.js */ "./workflows/bookings/v1/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/v1/definitions.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);
    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }
    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};
    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }
    return target;
}
// One booking's workflow state: what the bookingState query answers, the messages waiting for the
// main loop, and the named transitions that move it. Handlers (handlers.ts) only put messages in;
// the main loop (workflow.ts) and the offer loop (offer.ts) take them out and move the state.
;


/** The decision log's reason for a group offer's card withdrawn because another driver accepted first. */ const TAKEN_BY_ANOTHER = 'taken_by_another_driver';
class BookingRun {
    get policy() {
        return this.input.policy;
    }
    closed() {
        return _definitions_js__WEBPACK_IMPORTED_MODULE_2__.TERMINAL_STATUSES.includes(this.state.status);
    }
    /** The job cards out now: a group offer's, or the one card of one driver at a time. */ openOffers() {
        var _this_state_group;
        return (_this_state_group = this.state.group) !== null && _this_state_group !== void 0 ? _this_state_group : this.state.offer ? [
            this.state.offer
        ] : [];
    }
    /** Staff suspended this driver while they had this booking's job card or job. */ isSuspended(driverId) {
        var _ref;
        var _this_state_suspendedDriverIds;
        return driverId != null && ((_ref = (_this_state_suspendedDriverIds = this.state.suspendedDriverIds) === null || _this_state_suspendedDriverIds === void 0 ? void 0 : _this_state_suspendedDriverIds.includes(driverId)) !== null && _ref !== void 0 ? _ref : false);
    }
    /**
   * The job is held by a suspended driver and must be taken off them. Not once the passenger is on
   * board: pulling the job then would strand them mid-trip; ops are told instead and end the trip.
   */ holderSuspended() {
        return this.isSuspended(this.state.driverId) && this.state.status !== 'on_board' && !this.closed();
    }
    onBoardWithSuspendedDriver() {
        return this.isSuspended(this.state.driverId) && this.state.status === 'on_board' && !this.opsToldOnBoard;
    }
    /** Something the main loop must deal with before waiting any longer. */ interrupted() {
        return this.cancelRequest !== null || this.amendments.length > 0 || this.drop !== null || this.opsPick !== null || this.boardClaim !== null || this.holderSuspended() || this.onBoardWithSuspendedDriver();
    }
    /** The decision log: every driver considered, and what became of them. */ record(tier, c, outcome, reason = null) {
        this.state.candidates.push(_object_spread_props(_object_spread({
            round: this.state.round,
            tier
        }, c), {
            outcome,
            reason,
            at: new Date().toISOString()
        }));
        // (A driver who lost a group offer was told the job was taken: an amendment is no news to them.)
        if (outcome === 'withdrawn' && reason !== 'driver_suspended' && reason !== TAKEN_BY_ANOTHER && !this.withdrawnCards.includes(c.driverId)) this.withdrawnCards.push(c.driverId);
    }
    /**
   * Every status change goes through here: the state the query answers, and the search attributes
   * ops filter on in the Web UI (the starting values come with the start request,
   * src/bookings/start-workflow.ts).
   */ markStatus(status) {
        var _this_input_booking_partnerId;
        this.state.status = status;
        (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.upsertSearchAttributes)([
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.status,
                value: status
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.pickupAt,
                value: new Date(this.state.job.pickupAt)
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.driver,
                value: this.state.driverId
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.source,
                value: this.input.booking.source
            },
            {
                key: _definitions_js__WEBPACK_IMPORTED_MODULE_2__.BookingSearchAttributes.partner,
                value: (_this_input_booking_partnerId = this.input.booking.partnerId) !== null && _this_input_booking_partnerId !== void 0 ? _this_input_booking_partnerId : null
            }
        ]);
    }
    /** A status change the workflow itself records in Postgres (others are written by the activity that caused them). */ async setStatus(status) {
        if (this.state.status === status) return;
        this.markStatus(status);
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.setBookingStatus({
            ref: this.ref,
            status
        });
    }
    // Transitions.
    /** A job card is on its way to a driver. */ offered(offer) {
        this.state.offer = _object_spread_props(_object_spread({}, offer), {
            response: null
        });
    }
    /** The driver accepted and the assignment is recorded. */ assigned(driverId) {
        this.assignedAtMs = Date.now();
        this.state.driverId = driverId;
        this.markStatus('assigned');
        this.state.offer = null;
    }
    /** The driver no longer has the job (dropped it, no-show, suspended, no longer fits): dispatch again. */ released(driverId, outcome, reason) {
        this.state.candidates.push({
            round: this.state.round,
            tier: 'local',
            driverId,
            driverName: '',
            distanceMeters: null,
            outcome,
            reason,
            at: new Date().toISOString()
        });
        this.state.driverId = null;
        this.markStatus('dispatching');
    }
    /** An amendment moved the pickup or drop-off, or changed the fare. */ rerouted(route, fare) {
        if (route) {
            this.state.pickup = route.pickup;
            this.state.dropoff = route.dropoff;
        }
        if (fare) this.state.fare = fare;
    }
    cancelled(reason) {
        this.state.offer = null;
        this.state.cancelReason = reason;
        this.markStatus('cancelled');
    }
    constructor(input){
        var _input_booking_operatorId, _input_emailConfirmationFirst, _input_booking_identity;
        _define_property(this, "input", void 0);
        _define_property(this, "ref", void 0);
        _define_property(this, "state", void 0);
        /** Operator bookings never enter the cascade: the operator's dashboard picks the driver. */ _define_property(this, "operatorId", void 0);
        /** The passenger is emailed their confirmation before dispatch begins. */ _define_property(this, "confirmationFirst", void 0);
        // Messages for the main loop, put there by the handlers.
        /** The record is written: the routes waiting on bookingCreated may answer. */ _define_property(this, "persisted", void 0);
        _define_property(this, "emailConfirmed", void 0);
        _define_property(this, "cancelRequest", void 0);
        _define_property(this, "amendments", void 0);
        _define_property(this, "amendmentsReceived", void 0);
        _define_property(this, "amendmentsApplied", void 0);
        _define_property(this, "drop", void 0);
        _define_property(this, "progress", void 0);
        _define_property(this, "settlement", void 0);
        /** Operator bookings: the fleet driver the operator picked, waiting to be offered the job. */ _define_property(this, "fleetPick", void 0);
        _define_property(this, "fleetPicksServed", void 0);
        /** A driver ops named for the job (offerToDriver), waiting to be offered it. */ _define_property(this, "opsPick", void 0);
        _define_property(this, "opsPicksServed", void 0);
        /** A driver taking the job from the upcoming-jobs board (claimUpcomingJob), waiting for the main loop. */ _define_property(this, "boardClaim", void 0);
        /** What became of each board claim taken, by driver: their offer, or why the locked claim refused them. */ _define_property(this, "boardClaims", void 0);
        // The main loop's own bookkeeping.
        _define_property(this, "exhaustedRounds", void 0);
        /** When the driver holding the job accepted it (workflow time): one who took it well ahead confirms on the day. */ _define_property(this, "assignedAtMs", void 0);
        /** The driver asked to confirm on the day (once per driver). */ _define_property(this, "confirmAskedOf", void 0);
        /** Ops have been told that a suspended driver has a passenger on board. */ _define_property(this, "opsToldOnBoard", void 0);
        /**
   * The first page of round 1, read and claimed with the booking's record and its card sent
   * (openBookingWithFirstCard), waiting for the cascade to take it up; let go (its claim
   * withdrawn) if anything else comes first.
   */ _define_property(this, "firstPage", void 0);
        /**
   * Drivers whose job card was withdrawn since the last amendment was applied (the cascade withdraws
   * an open card whenever something interrupts it): a new pickup or drop-off tells them.
   */ _define_property(this, "withdrawnCards", void 0);
        /** Offers accepted, in the order the acceptances arrived: the first still open wins a group offer. */ _define_property(this, "acceptances", void 0);
        this.input = input;
        this.persisted = false;
        this.cancelRequest = null;
        this.amendments = [];
        this.amendmentsReceived = 0;
        this.amendmentsApplied = 0;
        this.drop = null;
        this.progress = null;
        this.settlement = null;
        this.fleetPick = null;
        this.fleetPicksServed = 0;
        this.opsPick = null;
        this.opsPicksServed = 0;
        this.boardClaim = null;
        this.boardClaims = new Map();
        this.exhaustedRounds = 0;
        this.assignedAtMs = 0;
        this.confirmAskedOf = null;
        this.opsToldOnBoard = false;
        this.firstPage = null;
        this.withdrawnCards = [];
        this.acceptances = [];
        this.ref = input.booking.ref;
        this.operatorId = (_input_booking_operatorId = input.booking.operatorId) !== null && _input_booking_operatorId !== void 0 ? _input_booking_operatorId : null;
        // Release 0.1.0 started bookings without the field and decided it from the source: its
        // bookings keep that rule until they have drained (docs/versioning.md).
        this.confirmationFirst = (_input_emailConfirmationFirst = input.emailConfirmationFirst) !== null && _input_emailConfirmationFirst !== void 0 ? _input_emailConfirmationFirst : Boolean(input.booking.passengerEmail && input.booking.source.startsWith('v1'));
        this.emailConfirmed = !input.awaitEmailConfirmation;
        this.state = {
            ref: this.ref,
            identity: (_input_booking_identity = input.booking.identity) !== null && _input_booking_identity !== void 0 ? _input_booking_identity : null,
            status: (0,_definitions_js__WEBPACK_IMPORTED_MODULE_2__.initialStatus)(input, Date.now()),
            job: _object_spread({}, input.job),
            round: 0,
            driverId: null,
            offer: null,
            candidates: [],
            droppedDriverIds: [],
            cancelReason: null,
            fare: {
                farePence: input.booking.farePence,
                fareSource: input.booking.fareSource
            },
            pickup: input.booking.pickup,
            dropoff: input.booking.dropoff
        };
    }
}


/***/ },

/***/ "./workflows/bookings/v1/workflow.ts"
/*!*******************************************!*\
  !*** ./workflows/bookings/v1/workflow.ts ***!
  \*******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AMEND_ROUTE_AND_FARE: () => (/* binding */ AMEND_ROUTE_AND_FARE),
/* harmony export */   CLAIM_UPCOMING: () => (/* binding */ CLAIM_UPCOMING),
/* harmony export */   CONFIRM_ON_THE_DAY: () => (/* binding */ CONFIRM_ON_THE_DAY),
/* harmony export */   LATE_ACCEPT_WINDOW: () => (/* binding */ LATE_ACCEPT_WINDOW),
/* harmony export */   OPS_OFFER_TO_DRIVER: () => (/* binding */ OPS_OFFER_TO_DRIVER),
/* harmony export */   PASSENGER_TOLD: () => (/* binding */ PASSENGER_TOLD),
/* harmony export */   bookingWorkflow: () => (/* binding */ bookingWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./activities.js */ "./workflows/bookings/v1/activities.ts");
/* harmony import */ var _cascade_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./cascade.js */ "./workflows/bookings/v1/cascade.ts");
/* harmony import */ var _exchange_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./exchange.js */ "./workflows/bookings/v1/exchange.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ./definitions.js */ "./workflows/bookings/v1/definitions.ts");
/* harmony import */ var _handlers_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(/*! ./handlers.js */ "./workflows/bookings/v1/handlers.ts");
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(/*! ./run.js */ "./workflows/bookings/v1/run.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
// One booking from creation to completion or cancellation, read top to bottom as the business
// process: open the record, wait for the passenger's confirmation if one is awaited, then until the
// booking closes find a driver (the cascade, or an operator's pick) and follow the trip, dealing
// first with whatever arrived meanwhile (a cancel, an amendment, a driver dropping out or being
// suspended); a completed trip then waits for its settlement.
// State and transitions: run.ts. Messages: handlers.ts. Finding a driver: cascade.ts, offer.ts.
;






/** After pickup time an unassigned booking stays cancellable this long before the workflow closes. */ const UNASSIGNED_GRACE_MS = 60 * 60000;
/** An unconfirmed booking waits at least this long for the passenger to open the emailed link. */ const EMAIL_CONFIRM_MIN_MS = 30 * 60000;
/** How long a completed trip waits for the driver (or a provider) to confirm what was paid. */ const SETTLEMENT_WINDOW_MS = 7 * 24 * 60 * 60000;
/**
 * Patch (issue 22): an amendment may carry a new pickup or drop-off and a new fare. With one, the
 * driver holding the job (or its withdrawn card) is told and released before the amendment is
 * written, and the amendment activity writes the route and fare too. Only amendments carrying a
 * route or fare reach the check, which bookings of release 0.1.0 never received.
 */ const AMEND_ROUTE_AND_FARE = 'amend-route-and-fare';
/**
 * Patch (issue 23): the passenger is told at every turn by the workflow (tellPassenger): booked,
 * their driver replaced, no driver yet, no driver found, and a receipt once paid. Before it only
 * v1 bookings were emailed when opened, and only a suspended driver's passenger heard of a change.
 */ const PASSENGER_TOLD = 'passenger-told-at-every-turn';
/**
 * Patch (issue 24): a driver who accepted a job well ahead (advance allocation) confirms on the
 * day: asked an hour before pickup, and replaced if they have not confirmed (or started) half an
 * hour before it, while there is still time to find another.
 */ const CONFIRM_ON_THE_DAY = 'confirm-on-the-day';
/** Defaults for bookings whose policy does not say (DispatchPolicy.confirmAskSeconds, confirmDeadlineSeconds). */ const CONFIRM_ASK_MS = 60 * 60000;
const CONFIRM_DEADLINE_MS = 30 * 60000;
/** Patch (issue 24): ops hand a booking nobody holds to a driver they name (offerToDriver). */ const OPS_OFFER_TO_DRIVER = 'ops-offer-to-driver';
/**
 * Patch (issue 24): a driver takes a pre-booked job from the upcoming-jobs board (claimUpcomingJob):
 * the main loop claims and assigns it to them (claimUpcomingJob, assignDriver: no job card), ending
 * a wait for the dispatch time for good. Only bookings that received a claim reach the check.
 */ const CLAIM_UPCOMING = 'claim-upcoming';
/**
 * Patch (issue 25): a driver who accepts late (after pickup plus the no-show grace, or so close to
 * it that less than DispatchPolicy.lateAcceptWindowSeconds is left) has that long from accepting to
 * report moving before the no-show watch lets them go. Before it the watch's timer was its floor of
 * one second, and the job went back to dispatching a second after a late acceptance. Only bookings
 * accepted with less than the window left reach the check (with the defaults, window = grace, an
 * immediate booking's driver does: they accept after its pickup time).
 */ const LATE_ACCEPT_WINDOW = 'late-accept-window';
/** Default for bookings whose policy does not say (DispatchPolicy.lateAcceptWindowSeconds). */ const LATE_ACCEPT_WINDOW_MS = 10 * 60000;
async function bookingWorkflow(input) {
    var _run_state_exchange;
    const run = new _run_js__WEBPACK_IMPORTED_MODULE_6__.BookingRun(input);
    const jobCards = (0,_activities_js__WEBPACK_IMPORTED_MODULE_1__.jobCardActivities)(input.policy);
    (0,_handlers_js__WEBPACK_IMPORTED_MODULE_5__.installHandlers)(run);
    (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.installExchangeHandlers)(run);
    await open(run);
    // The passenger hears they are booked while the first driver's card is already out. Not awaited
    // here: the round starts in this same task, so a driver who accepts at once finds their offer open.
    const toldBooked = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(PASSENGER_TOLD) ? tell(run, {
        kind: 'booked'
    }) : null;
    if (!toldBooked && run.confirmationFirst) {
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.sendBookingConfirmation({
            ref: run.ref,
            awaitingConfirmation: run.input.awaitEmailConfirmation
        });
    }
    await awaitEmailConfirmation(run);
    for(;;){
        if (run.firstPage && run.interrupted()) await (0,_cascade_js__WEBPACK_IMPORTED_MODULE_2__.letFirstPageGo)(run, run.firstPage);
        if (run.cancelRequest) {
            await cancel(run);
            break;
        }
        // (Only a trip an exchange fleet drove is closed here; every other closes where it ends.)
        if (run.closed()) break;
        if (await applyChanges(run)) {
            await (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.sendAmendmentToExchangeFleet)(run);
            continue;
        }
        if (run.opsPick && (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(OPS_OFFER_TO_DRIVER)) {
            // Taken first: a pick still waiting interrupts whatever is in progress, its own offer included.
            const pick = run.opsPick;
            run.opsPick = null;
            await (0,_cascade_js__WEBPACK_IMPORTED_MODULE_2__.offerToOpsPick)(run, jobCards, pick);
            continue;
        }
        if (run.boardClaim && (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(CLAIM_UPCOMING)) {
            await (0,_cascade_js__WEBPACK_IMPORTED_MODULE_2__.takeBoardClaim)(run);
            continue;
        }
        const next = run.state.driverId !== null ? await followTrip(run) : run.operatorId ? await awaitOperatorPick(run, jobCards) : await findDriver(run, jobCards);
        if (next === 'closed') break;
    }
    // A trip an exchange fleet drove is settled by that fleet (docs/exchange.md).
    if (run.state.status === 'completed' && !((_run_state_exchange = run.state.exchange) === null || _run_state_exchange === void 0 ? void 0 : _run_state_exchange.fleetId)) await settle(run);
    await toldBooked;
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
    return run.state;
}
/**
 * The record is written first: every route returns only once it exists (bookingCreated). A booking
 * dispatched at once (no confirmation email to send or wait for, no operator) claims its first
 * driver and sends the job card in the same step.
 */ async function open(run) {
    const { booking } = run.input;
    // (A booking waiting for its email to be confirmed starts as awaiting_confirmation, not dispatching.)
    const dispatchAtOnce = run.state.status === 'dispatching' && !run.operatorId && !run.confirmationFirst;
    if (dispatchAtOnce) {
        run.state.round = 1;
        run.firstPage = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.openBookingWithFirstCard({
            booking,
            job: run.state.job,
            status: run.state.status,
            claim: (0,_cascade_js__WEBPACK_IMPORTED_MODULE_2__.firstPageQuery)(run)
        });
    } else {
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.persistBooking({
            booking,
            job: run.state.job,
            status: run.state.status
        });
    }
    run.persisted = true;
}
/** The passenger hears the news by the channel they gave, unless a partner's customer (the partner tells them). */ async function tell(run, news) {
    if ((0,_definitions_js__WEBPACK_IMPORTED_MODULE_4__.passengerHearsFromUs)(run.input.booking.source)) await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.tellPassenger({
        ref: run.ref,
        news
    });
}
/** An unverified passenger confirms by the emailed link before pickup, or the booking is cancelled. */ async function awaitEmailConfirmation(run) {
    if (run.emailConfirmed) return;
    const confirmed = await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.emailConfirmed || run.cancelRequest !== null, Math.max(msUntil(run.state.job.pickupAt), EMAIL_CONFIRM_MIN_MS));
    if (!confirmed) run.cancelRequest = {
        reason: 'email not confirmed before pickup',
        by: 'ops'
    };
    else if (!run.cancelRequest) await run.setStatus('scheduled');
}
async function cancel(run) {
    var _ref;
    var _run_state_offer;
    const c = run.cancelRequest;
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.cancelBooking({
        ref: run.ref,
        reason: c.reason,
        by: c.by,
        offerId: (_ref = (_run_state_offer = run.state.offer) === null || _run_state_offer === void 0 ? void 0 : _run_state_offer.offerId) !== null && _ref !== void 0 ? _ref : null,
        driverId: run.state.driverId
    });
    run.cancelled(c.reason);
    await (0,_exchange_js__WEBPACK_IMPORTED_MODULE_3__.cancelExchangeJob)(run);
}
/** Whatever changed the plan since the last step, dealt with one at a time; true when one was. */ async function applyChanges(run) {
    if (run.amendments.length > 0) {
        await applyAmendments(run);
    } else if (run.drop) {
        await releaseDriver(run, run.drop);
    } else if (run.holderSuspended()) {
        // Taken off the suspended driver and dispatched again; releaseDriver tells them and the passenger.
        await releaseDriver(run, {
            driverId: run.state.driverId,
            reason: 'suspended'
        });
    } else if (run.onBoardWithSuspendedDriver()) {
        run.opsToldOnBoard = true;
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.alertOpsSuspendedOnBoard({
            ref: run.ref,
            driverId: run.state.driverId
        });
    } else {
        return false;
    }
    return true;
}
async function applyAmendments(run) {
    const batch = run.amendments.splice(0);
    const withdrawnCards = run.withdrawnCards.splice(0);
    const next = _object_spread({}, run.state.job);
    let route;
    let fare;
    for (const a of batch){
        if (a.pickupAt !== undefined) next.pickupAt = a.pickupAt;
        if (a.passengers !== undefined) next.passengers = a.passengers;
        if (a.vehicleType !== undefined) next.vehicleType = a.vehicleType;
        if (a.wheelchair !== undefined) next.wheelchair = a.wheelchair;
        if (a.notes !== undefined) next.notes = a.notes;
        if (a.route !== undefined) route = a.route;
        if (a.fare !== undefined) fare = a.fare;
    }
    run.state.job = next;
    const driverId = run.state.driverId;
    if ((route || fare) && (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(AMEND_ROUTE_AND_FARE)) {
        await applyRouteAndFare(run, {
            job: next,
            route,
            fare,
            driverId,
            withdrawnCards,
            ticket: run.amendmentsReceived
        });
        run.amendmentsApplied += batch.length;
        return;
    }
    const { driverStillFits } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.applyAmendment({
        ref: run.ref,
        job: next,
        driverId
    });
    if (driverId && !driverStillFits) {
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.releaseDriver({
            ref: run.ref,
            driverId,
            reason: 'no longer fits the amended booking'
        });
        run.released(driverId, 'withdrawn', 'amendment');
    }
    run.amendmentsApplied += batch.length;
}
/**
 * A new pickup or drop-off (or fare), before any driver is on the way: the driver holding the job,
 * and any whose card the amendment withdrew, are told it is withdrawn, before the record changes
 * (their text names the job they knew); then the amended job is written and dispatched again from
 * the start. A fare change alone keeps the driver if they still fit, like any other amendment.
 */ async function applyRouteAndFare(run, a) {
    var _a_route, _a_fare;
    let holder = a.driverId;
    if (a.route) {
        const told = holder ? [
            holder,
            ...a.withdrawnCards.filter((d)=>d !== holder)
        ] : a.withdrawnCards;
        for (const driverId of told){
            await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.releaseDriver({
                ref: run.ref,
                driverId,
                reason: 'amended',
                amendment: a.ticket
            });
        }
        if (holder) run.released(holder, 'withdrawn', 'amendment');
        holder = null;
    }
    run.rerouted(a.route, a.fare);
    const { driverStillFits } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.applyAmendment({
        ref: run.ref,
        job: a.job,
        driverId: holder,
        route: (_a_route = a.route) !== null && _a_route !== void 0 ? _a_route : null,
        fare: (_a_fare = a.fare) !== null && _a_fare !== void 0 ? _a_fare : null
    });
    if (holder && !driverStillFits) {
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.releaseDriver({
            ref: run.ref,
            driverId: holder,
            reason: 'no longer fits the amended booking'
        });
        run.released(holder, 'withdrawn', 'amendment');
    }
}
async function releaseDriver(run, d) {
    run.drop = null;
    if (d.driverId !== run.state.driverId) return;
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.releaseDriver({
        ref: run.ref,
        driverId: d.driverId,
        reason: d.reason
    });
    run.state.droppedDriverIds.push(d.driverId);
    run.released(d.driverId, d.reason === 'suspended' || d.reason === 'released' ? 'withdrawn' : 'dropped', d.reason);
    if ((0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(PASSENGER_TOLD)) await tell(run, {
        kind: 'driver_replaced',
        driverId: d.driverId
    });
}
/** An operator's job waits on the operator's dashboard until it picks a driver, and a while past pickup. */ async function awaitOperatorPick(run, jobCards) {
    await run.setStatus('scheduled');
    const picked = await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.fleetPick !== null || run.interrupted(), msUntil(run.state.job.pickupAt) + UNASSIGNED_GRACE_MS);
    if (!picked) {
        await run.setStatus('unassigned');
        return 'closed';
    }
    if (run.fleetPick) {
        const pick = run.fleetPick;
        await (0,_cascade_js__WEBPACK_IMPORTED_MODULE_2__.offerToFleetDriver)(run, jobCards, pick);
        run.fleetPick = null;
    }
    return 'again';
}
/**
 * Dispatch at the lead time before pickup; a round of the cascade; when every tier is exhausted,
 * ops are alerted and the next round waits on a backoff, until pickup and a grace after it.
 */ async function findDriver(run, jobCards) {
    const policy = run.policy;
    const dispatchAt = Date.parse(run.state.job.pickupAt) - policy.dispatchLeadSeconds * 1000;
    if (Date.now() < dispatchAt) {
        await run.setStatus('scheduled');
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.interrupted(), dispatchAt - Date.now());
        return 'again';
    }
    const result = await (0,_cascade_js__WEBPACK_IMPORTED_MODULE_2__.runCascadeRound)(run, jobCards);
    if (result !== 'exhausted') return 'again';
    run.exhaustedRounds += 1;
    await run.setStatus('unassigned');
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.alertOps({
        ref: run.ref,
        round: run.state.round
    });
    if (run.exhaustedRounds === 1 && (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(PASSENGER_TOLD)) await tell(run, {
        kind: 'no_driver_yet'
    });
    const untilPickup = msUntil(run.state.job.pickupAt);
    if (untilPickup <= 0) {
        // Past pickup with nobody found: stop retrying but stay cancellable for a while.
        if (await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.interrupted(), UNASSIGNED_GRACE_MS)) return 'again';
        if ((0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(PASSENGER_TOLD)) await tell(run, {
            kind: 'no_driver_found'
        });
        return 'closed';
    }
    const backoff = Math.min(policy.retryBaseSeconds * 2 ** (run.exhaustedRounds - 1), policy.maxRetrySeconds) * 1000;
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.interrupted(), Math.min(backoff, untilPickup));
    return 'again';
}
/**
 * Assigned: wait for the trip to progress, or for something that changes the plan. A driver who
 * has not reported moving by pickup time plus the grace is a no-show and the job goes to another;
 * one on the way may be stuck in traffic.
 */ async function followTrip(run) {
    const woken = ()=>run.interrupted() || run.progress !== null;
    if (run.state.status === 'assigned' && acceptedWellAhead(run) && (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(CONFIRM_ON_THE_DAY)) {
        if (await confirmOnTheDay(run) === 'again') return 'again';
    }
    if (run.state.status === 'assigned') {
        const noShowAt = noShowTime(run);
        if (!await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(woken, Math.max(1000, noShowAt - Date.now()))) {
            run.drop = {
                driverId: run.state.driverId,
                reason: 'no_show'
            };
            return 'again';
        }
    } else {
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(woken);
    }
    if (run.progress === null) return 'again';
    const p = run.progress;
    run.progress = null;
    // Reports arriving as signals are checked here; the reportTrip update's validator already refuses them.
    if (!(0,_definitions_js__WEBPACK_IMPORTED_MODULE_4__.isNextTripStep)(run.state.status, p)) return 'again';
    await run.setStatus(p);
    return p === 'completed' || p === 'no_show' ? 'closed' : 'again';
}
/**
 * When the assigned driver who has not reported moving is let go: pickup plus the grace, or, for a
 * driver who accepted late, the late-accept window after they accepted (counted from the
 * acceptance, so a wake-up meanwhile does not shorten it). Not their ETA: the watch waits for them
 * to set off, not to arrive, and once on the way they are never a no-show.
 */ function noShowTime(run) {
    var _run_policy_lateAcceptWindowSeconds;
    const graceEnds = Date.parse(run.state.job.pickupAt) + run.policy.noShowGraceSeconds * 1000;
    const windowEnds = run.assignedAtMs + ((_run_policy_lateAcceptWindowSeconds = run.policy.lateAcceptWindowSeconds) !== null && _run_policy_lateAcceptWindowSeconds !== void 0 ? _run_policy_lateAcceptWindowSeconds : LATE_ACCEPT_WINDOW_MS / 1000) * 1000;
    return run.assignedAtMs > 0 && windowEnds > graceEnds && (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(LATE_ACCEPT_WINDOW) ? windowEnds : graceEnds;
}
function acceptedWellAhead(run) {
    var _run_policy_confirmAskSeconds;
    const askMs = ((_run_policy_confirmAskSeconds = run.policy.confirmAskSeconds) !== null && _run_policy_confirmAskSeconds !== void 0 ? _run_policy_confirmAskSeconds : CONFIRM_ASK_MS / 1000) * 1000;
    return run.assignedAtMs > 0 && run.assignedAtMs < Date.parse(run.state.job.pickupAt) - askMs;
}
/**
 * A job accepted well ahead is confirmed on the day: the driver is asked an hour before pickup
 * (unless they have confirmed, or started, already) and, with no answer half an hour before it, let
 * go like a driver who dropped it (the passenger hears their driver is being replaced) so another
 * is found in time. 'again' when something else came first or the driver was let go.
 */ async function confirmOnTheDay(run) {
    var _run_policy_confirmAskSeconds, _run_policy_confirmDeadlineSeconds;
    const driverId = run.state.driverId;
    const settled = ()=>run.state.confirmedDriverId === driverId || run.progress !== null;
    if (settled()) return 'proceed';
    const pickupMs = Date.parse(run.state.job.pickupAt);
    const askAt = pickupMs - ((_run_policy_confirmAskSeconds = run.policy.confirmAskSeconds) !== null && _run_policy_confirmAskSeconds !== void 0 ? _run_policy_confirmAskSeconds : CONFIRM_ASK_MS / 1000) * 1000;
    const deadline = pickupMs - ((_run_policy_confirmDeadlineSeconds = run.policy.confirmDeadlineSeconds) !== null && _run_policy_confirmDeadlineSeconds !== void 0 ? _run_policy_confirmDeadlineSeconds : CONFIRM_DEADLINE_MS / 1000) * 1000;
    if (Date.now() < askAt && await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>settled() || run.interrupted(), askAt - Date.now())) {
        return settled() ? 'proceed' : 'again';
    }
    if (run.confirmAskedOf !== driverId) {
        run.confirmAskedOf = driverId;
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.askDriverToConfirm({
            ref: run.ref,
            driverId,
            deadline: new Date(deadline).toISOString()
        });
    }
    if (await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>settled() || run.interrupted(), Math.max(1000, deadline - Date.now()))) {
        return settled() ? 'proceed' : 'again';
    }
    run.drop = {
        driverId,
        reason: 'not_confirmed'
    };
    return 'again';
}
/**
 * Settling is a step of the booking: the driver confirms what was received (or a provider's
 * webhook does, or ops ending the trip), and it is written once as an immutable payment record.
 */ async function settle(run) {
    run.state.payment = null;
    if (!await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>run.settlement !== null, SETTLEMENT_WINDOW_MS)) return;
    run.state.payment = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.recordPayment({
        ref: run.ref,
        driverId: run.state.driverId,
        settlement: run.settlement
    });
    if ((0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(PASSENGER_TOLD)) await tell(run, {
        kind: 'receipt'
    });
    // Ended by ops: the passenger and the driver hear how it was settled.
    if (run.state.ended) await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.sendTripEndedByOps({
        ref: run.ref,
        driverId: run.state.driverId
    });
}
function msUntil(iso) {
    return Math.max(0, Date.parse(iso) - Date.now());
}


/***/ },

/***/ "./workflows/bookings/workflow.ts"
/*!****************************************!*\
  !*** ./workflows/bookings/workflow.ts ***!
  \****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   bookingWorkflowV2: () => (/* binding */ bookingWorkflowV2)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/bookings.js */ "./src/model/bookings.ts");
/* harmony import */ var _dispatch_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./dispatch.js */ "./workflows/bookings/dispatch.ts");
/* harmony import */ var _exchange_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ./exchange.js */ "./workflows/bookings/exchange.ts");
/* harmony import */ var _handlers_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(/*! ./handlers.js */ "./workflows/bookings/handlers.ts");
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(/*! ./run.js */ "./workflows/bookings/run.ts");
/* harmony import */ var _src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(/*! ../../src/model/booking-state.js */ "./src/model/booking-state.ts");
/* harmony import */ var _trip_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(/*! ./trip.js */ "./workflows/bookings/trip.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
// bookingWorkflowV2, the business process top to bottom (docs/dispatch.md): open the record, then turn
// by turn deal with whatever arrived, then do what the state asks: wait for the passenger's confirmation,
// offer the job to the nearest fitting drivers (dispatch.ts, offers.ts), or follow the trip (trip.ts).
// v1/ is the process as released in 0.4.0.
;








async function bookingWorkflowV2(input) {
    var _run_state_exchange;
    const run = new _run_js__WEBPACK_IMPORTED_MODULE_6__.BookingRun(input);
    (0,_handlers_js__WEBPACK_IMPORTED_MODULE_5__.installHandlers)(run);
    const toldWithCards = await open(run);
    // Not awaited here: the first round starts in this same task, so a driver who accepts at once finds their offer open.
    const toldBooked = toldWithCards ? Promise.resolve() : (0,_trip_js__WEBPACK_IMPORTED_MODULE_8__.tell)(run, {
        kind: 'booked'
    });
    while(await turn(run) === 'again');
    // A trip an exchange fleet drove is settled by that fleet (docs/exchange.md).
    if (run.state.status === 'completed' && !((_run_state_exchange = run.state.exchange) === null || _run_state_exchange === void 0 ? void 0 : _run_state_exchange.fleetId)) await (0,_trip_js__WEBPACK_IMPORTED_MODULE_8__.settle)(run);
    await toldBooked;
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
    return run.state;
}
async function turn(run) {
    const { inbox } = run;
    if (run.firstPage && inbox.interrupted()) await (0,_dispatch_js__WEBPACK_IMPORTED_MODULE_3__.letFirstPageGo)(run, run.firstPage);
    const cancel = inbox.take('cancel');
    if (cancel) return cancelBooking(run, cancel.msg.cancel);
    // (Only a trip an exchange fleet drove is closed here; every other closes where it ends.)
    if (run.closed()) return 'closed';
    if (await applyChanges(run)) {
        await (0,_exchange_js__WEBPACK_IMPORTED_MODULE_4__.sendAmendmentToExchangeFleet)(run);
        return 'again';
    }
    // A driver ops named comes first: it interrupts whatever was in progress, its own offer included.
    const pick = inbox.take('opsPick');
    if (pick) {
        await (0,_dispatch_js__WEBPACK_IMPORTED_MODULE_3__.offerToNamedDriver)(run, pick.msg.pick, 'local', ()=>inbox.reply(pick.id));
        return 'again';
    }
    const claim = inbox.take('boardClaim');
    if (claim) {
        inbox.reply(claim.id, await (0,_dispatch_js__WEBPACK_IMPORTED_MODULE_3__.takeBoardClaim)(run, claim.msg.claim));
        return 'again';
    }
    if (run.state.status === 'awaiting_confirmation') return awaitEmailConfirmation(run);
    if (run.state.driverId !== null) return (0,_trip_js__WEBPACK_IMPORTED_MODULE_8__.followTrip)(run);
    return run.operatorId ? awaitOperatorPick(run) : findDriver(run);
}
/**
 * The record first (every route returns once it exists); dispatched at once, it claims the first
 * drivers too and tells the passenger they are booked beside their cards (the reply waits for the
 * cards anyway; a message of its own would be an activity and a workflow task more). True when the
 * passenger was told so.
 */ async function open(run) {
    const { booking } = run.input;
    const { job, status } = run.state;
    let toldBooked = false;
    if (status === 'dispatching' && !run.operatorId && !run.confirmationFirst) {
        run.move(_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_7__.roundBegun);
        const claim = (0,_dispatch_js__WEBPACK_IMPORTED_MODULE_3__.firstPageQuery)(run);
        const page = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.openBookingWithFirstCard({
            booking,
            job,
            status,
            claim,
            tellBooked: true
        });
        ({ toldBooked } = page);
        run.firstPage = page;
    } else {
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.persistBooking({
            booking,
            job,
            status
        });
    }
    run.persisted = true;
    return toldBooked;
}
/** An unverified passenger confirms by the emailed link before pickup, or the booking is cancelled. */ async function awaitEmailConfirmation(run) {
    const woken = run.emailConfirmed() ? 'message' : await run.inbox.waitFor([
        'emailConfirmed'
    ], Math.max(1, run.emailDeadlineMs - Date.now()));
    if (run.emailConfirmed()) await run.setStatus('scheduled');
    else if (woken === 'timeout') return cancelBooking(run, {
        reason: 'email not confirmed before pickup',
        by: 'ops'
    });
    return 'again';
}
async function cancelBooking(run, c) {
    var _ref;
    const { offer, driverId } = run.state;
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.cancelBooking({
        ref: run.ref,
        reason: c.reason,
        by: c.by,
        offerId: (_ref = offer === null || offer === void 0 ? void 0 : offer.offerId) !== null && _ref !== void 0 ? _ref : null,
        driverId
    });
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_7__.cancelled(s, c.reason));
    run.markStatus('cancelled');
    await (0,_exchange_js__WEBPACK_IMPORTED_MODULE_4__.cancelExchangeJob)(run);
    return 'closed';
}
/** Whatever changed the plan since the last turn, dealt with one at a time; true when one was. */ async function applyChanges(run) {
    const amendments = run.inbox.takeAll('amend');
    const drop = amendments.length > 0 ? undefined : run.inbox.take('drop');
    if (amendments.length > 0) {
        await applyAmendments(run, amendments);
        for (const e of amendments)run.inbox.reply(e.id);
    } else if (drop) {
        await (0,_trip_js__WEBPACK_IMPORTED_MODULE_8__.releaseDriver)(run, drop.msg.drop);
    } else if (_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.holderSuspended(run.state)) {
        // Taken off the suspended driver and dispatched again; releaseDriver tells them and the passenger.
        await (0,_trip_js__WEBPACK_IMPORTED_MODULE_8__.releaseDriver)(run, {
            driverId: run.state.driverId,
            reason: 'suspended'
        });
    } else if (run.onBoardWithSuspendedDriver()) {
        run.opsToldOnBoard = true;
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.alertOpsSuspendedOnBoard({
            ref: run.ref,
            driverId: run.state.driverId
        });
    } else {
        return false;
    }
    return true;
}
/**
 * Amendments, folded into one. A new pickup or drop-off: the driver holding the job, and any whose card
 * an amendment withdrew, are told before the record changes (their text names the job they knew), and
 * the job is dispatched afresh. Any other change keeps the driver if they still fit.
 */ async function applyAmendments(run, batch) {
    const amendments = batch.map((e)=>e.msg.amend);
    const { job, route, fare } = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.amendmentsFolded(run.state.job, amendments);
    const withdrawnCards = run.withdrawnCards.splice(0);
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_7__.amended(s, job));
    let holder = run.state.driverId;
    if (route) {
        const told = holder ? [
            holder,
            ...withdrawnCards.filter((d)=>d !== holder)
        ] : withdrawnCards;
        const amendment = run.inbox.count('amend');
        for (const driverId of told)await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.releaseDriver({
            ref: run.ref,
            driverId,
            reason: 'amended',
            amendment
        });
        if (holder) run.released(holder, 'withdrawn', 'amendment');
        holder = null;
    }
    run.move((s)=>_src_model_booking_state_js__WEBPACK_IMPORTED_MODULE_7__.rerouted(s, route, fare));
    const changes = route || fare ? {
        route: route !== null && route !== void 0 ? route : null,
        fare: fare !== null && fare !== void 0 ? fare : null
    } : {};
    const { driverStillFits } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.applyAmendment(_object_spread({
        ref: run.ref,
        job,
        driverId: holder
    }, changes));
    if (holder && !driverStillFits) {
        await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.releaseDriver({
            ref: run.ref,
            driverId: holder,
            reason: 'no longer fits the amended booking'
        });
        run.released(holder, 'withdrawn', 'amendment');
    }
}
/** An operator's job waits on the operator's dashboard until it picks a driver, and a while past pickup. */ async function awaitOperatorPick(run) {
    await run.setStatus('scheduled');
    const woken = await run.inbox.waitFor([
        'fleetPick'
    ], msUntil(run.state.job.pickupAt) + _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.UNASSIGNED_GRACE_MS);
    const pick = run.inbox.take('fleetPick');
    if (pick) {
        await (0,_dispatch_js__WEBPACK_IMPORTED_MODULE_3__.offerToNamedDriver)(run, pick.msg.pick, 'partner', ()=>run.inbox.reply(pick.id));
    } else if (woken === 'timeout') {
        await run.setStatus('unassigned');
        return 'closed';
    }
    return 'again';
}
/**
 * At the lead time, a round of the cascade; all tiers exhausted, ops are alerted and the next round
 * waits a backoff, until half an hour past pickup (model.searchEndsAt). Then the booking is closed.
 */ async function findDriver(run) {
    const { pickupAt } = run.state.job;
    const dispatchAt = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.dispatchTime(run.policy, pickupAt);
    if (Date.now() < dispatchAt) {
        await run.setStatus('scheduled');
        await run.inbox.waitFor([], dispatchAt - Date.now());
        return 'again';
    }
    if (await (0,_dispatch_js__WEBPACK_IMPORTED_MODULE_3__.runRound)(run) !== 'exhausted') return 'again';
    run.exhaustedRounds += 1;
    await run.setStatus('unassigned');
    await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.alertOps({
        ref: run.ref,
        round: run.state.round
    });
    const searchUntil = new Date(_src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.searchEndsAt(pickupAt)).toISOString();
    if (run.exhaustedRounds === 1) await (0,_trip_js__WEBPACK_IMPORTED_MODULE_8__.tell)(run, {
        kind: 'no_driver_yet',
        searchUntil
    });
    const waitMs = _src_model_bookings_js__WEBPACK_IMPORTED_MODULE_2__.backoffMs(run.policy, run.exhaustedRounds, pickupAt, Date.now());
    // Any message that interrupts (a cancel, a new pickup time, a driver ops name) ends the wait at once.
    if (waitMs !== null) return run.inbox.waitFor([], waitMs).then(()=>'again');
    await (0,_trip_js__WEBPACK_IMPORTED_MODULE_8__.tell)(run, {
        kind: 'no_driver_found'
    });
    return 'closed';
}
function msUntil(iso) {
    return Math.max(0, Date.parse(iso) - Date.now());
}


/***/ },

/***/ "./workflows/drivers/definitions.ts"
/*!******************************************!*\
  !*** ./workflows/drivers/definitions.ts ***!
  \******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   LICENCE_WORKFLOW_PREFIX: () => (/* binding */ LICENCE_WORKFLOW_PREFIX),
/* harmony export */   LOCATION_WATCH_CHECKS_PER_RUN: () => (/* binding */ LOCATION_WATCH_CHECKS_PER_RUN),
/* harmony export */   LOCATION_WATCH_WORKFLOW_ID: () => (/* binding */ LOCATION_WATCH_WORKFLOW_ID),
/* harmony export */   SUSPENSION_WORKFLOW_PREFIX: () => (/* binding */ SUSPENSION_WORKFLOW_PREFIX),
/* harmony export */   licenceStateQuery: () => (/* binding */ licenceStateQuery),
/* harmony export */   licenceWorkflowId: () => (/* binding */ licenceWorkflowId),
/* harmony export */   licencesRenewedSignal: () => (/* binding */ licencesRenewedSignal),
/* harmony export */   locationWatchStateQuery: () => (/* binding */ locationWatchStateQuery),
/* harmony export */   suspensionWorkflowId: () => (/* binding */ suspensionWorkflowId)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _watch_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../watch.js */ "./workflows/watch.ts");
// The drivers' workflows' Temporal contract: their ids, inputs, messages and state, which the
// application, the activities and the worker must agree on. The licence rules (when a driver is
// told) are src/model/drivers.ts. Imported by workflow code, so it stays free of Node built-ins and I/O.


// The driver's licences over time: a reminder a fortnight before the first one runs out, and a
// warning 3 days before.
const LICENCE_WORKFLOW_PREFIX = 'licence:';
function licenceWorkflowId(driverId) {
    return `${LICENCE_WORKFLOW_PREFIX}${driverId}`;
}
/** New dates after a renewal: the reminder is worked out again. */ const licencesRenewedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineSignal)('licencesRenewed');
const licenceStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('licenceState');
// Suspension: staff suspend a driver (src/drivers/onboarding.ts); one short workflow per suspension
// takes the driver off every booking, so the withdrawal is finished even if the API process dies
// right after the suspension is written.
const SUSPENSION_WORKFLOW_PREFIX = 'driver-suspension:';
/**
 * One per suspension: the driver and the moment their status became suspended. A retried decision
 * names the same suspension (the moment does not move), so it starts nothing twice; a later
 * suspension, after a reinstatement, is a new one.
 */ function suspensionWorkflowId(driverId, suspendedAt) {
    return `${SUSPENSION_WORKFLOW_PREFIX}${driverId}:${suspendedAt.getTime()}`;
}
// The location watch: one long-running workflow for the service, which each minute texts online
// drivers whose app has stopped sending its position, before dispatch passes them over
// (workflows/watch.ts).
/** One id for the service: every worker starts it with USE_EXISTING, so it runs once. */ const LOCATION_WATCH_WORKFLOW_ID = 'drivers:location-watch';
const LOCATION_WATCH_CHECKS_PER_RUN = _watch_js__WEBPACK_IMPORTED_MODULE_1__.WATCH_CHECKS_PER_RUN;
const locationWatchStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('locationWatchState');


/***/ },

/***/ "./workflows/drivers/location-watch.ts"
/*!*********************************************!*\
  !*** ./workflows/drivers/location-watch.ts ***!
  \*********************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   driverLocationWatchWorkflow: () => (/* binding */ driverLocationWatchWorkflow)
/* harmony export */ });
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _watch_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../watch.js */ "./workflows/watch.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/drivers/definitions.ts");



/**
 * `drivers:location-watch`: each minute, text every online driver whose app has gone quiet that
 * dispatch will soon pass them over, once per silence (the activity claims each in Postgres). A
 * driver is never left online and silently out of work. After a day of looks it continues as new.
 */ async function driverLocationWatchWorkflow(input = {}) {
    await (0,_watch_js__WEBPACK_IMPORTED_MODULE_1__.watchEachMinute)('warned', input, _definitions_js__WEBPACK_IMPORTED_MODULE_2__.locationWatchStateQuery, async ()=>{
        return (await _activities_js__WEBPACK_IMPORTED_MODULE_0__.acts.warnDriversLosingLocation()).warned;
    });
}


/***/ },

/***/ "./workflows/drivers/suspension.ts"
/*!*****************************************!*\
  !*** ./workflows/drivers/suspension.ts ***!
  \*****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   driverSuspensionWorkflow: () => (/* binding */ driverSuspensionWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _bookings_definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../bookings/definitions.js */ "./workflows/bookings/definitions.ts");



/**
 * A driver was suspended (`driver-suspension:<driverId>:<at>`): every booking with a job card open
 * to them or a job they hold is told, keyed by its business id (booking:<ref>). Each booking's own
 * workflow decides what that means (withdraw the card, take the job off them, or, with the
 * passenger on board, tell ops), and ignores a repeat, so running this twice changes nothing.
 * The status was written before this started: no new job card can be claimed for the driver, so
 * the bookings read here are all there will be.
 */ async function driverSuspensionWorkflow({ driverId }) {
    const { refs } = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.findDriverBookings({
        driverId
    });
    const result = {
        signalled: [],
        closed: []
    };
    await Promise.all(refs.map(async (ref)=>{
        try {
            await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.getExternalWorkflowHandle)((0,_bookings_definitions_js__WEBPACK_IMPORTED_MODULE_2__.bookingWorkflowId)(ref)).signal(_bookings_definitions_js__WEBPACK_IMPORTED_MODULE_2__.driverSuspendedSignal, {
                driverId
            });
            result.signalled.push(ref);
        } catch (err) {
            // The booking's workflow has closed (completed, cancelled): nothing left to take off them.
            if (!(err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.TemporalFailure)) throw err;
            result.closed.push(ref);
        }
    }));
    result.signalled.sort();
    result.closed.sort();
    return result;
}


/***/ },

/***/ "./workflows/drivers/workflow.ts"
/*!***************************************!*\
  !*** ./workflows/drivers/workflow.ts ***!
  \***************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   LICENCE_THREE_DAY_WARNING_PATCH: () => (/* binding */ LICENCE_THREE_DAY_WARNING_PATCH),
/* harmony export */   driverLicenceWorkflow: () => (/* binding */ driverLicenceWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/drivers/definitions.ts");
/* harmony import */ var _src_model_drivers_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ../../src/model/drivers.js */ "./src/model/drivers.ts");




/**
 * 0.4.0: a second text 3 days before the licence runs out (sendLicenceLapseWarning), after the
 * fortnight's reminder; each once per expiry date, and a renewal cancels both while they wait. A
 * watch that starts inside the last 3 days sends only the 3-day warning, not both at once.
 */ const LICENCE_THREE_DAY_WARNING_PATCH = 'licence-three-day-warning';
/**
 * One per approved driver (`licence:<driverId>`): sleeps until a fortnight before the first of the
 * driver's licences runs out and texts them, and again 3 days before, each once per expiry date; a
 * renewal (new dates) starts the wait again. A renewal approved after the watch ended starts a new
 * one (src/drivers/licences.ts). It ends when no expiry is on record or the last one has passed unrenewed.
 */ async function driverLicenceWorkflow(input) {
    const state = {
        driverLicenceExpires: input.driverLicenceExpires,
        vehicleLicenceExpires: input.vehicleLicenceExpires,
        expires: (0,_src_model_drivers_js__WEBPACK_IMPORTED_MODULE_3__.firstExpiry)(input),
        remindedFor: [],
        warnedFor: []
    };
    let renewed = false;
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_2__.licenceStateQuery, ()=>state);
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_2__.licencesRenewedSignal, (d)=>{
        state.driverLicenceExpires = d.driverLicenceExpires;
        state.vehicleLicenceExpires = d.vehicleLicenceExpires;
        state.expires = (0,_src_model_drivers_js__WEBPACK_IMPORTED_MODULE_3__.firstExpiry)(d);
        renewed = true;
    });
    for(;;){
        renewed = false;
        const expires = state.expires;
        if (expires === null) return state;
        const remindAt = (0,_src_model_drivers_js__WEBPACK_IMPORTED_MODULE_3__.reminderAt)(expires);
        if ((0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(LICENCE_THREE_DAY_WARNING_PATCH)) {
            const warnAt = (0,_src_model_drivers_js__WEBPACK_IMPORTED_MODULE_3__.warningAt)(expires);
            if (!state.remindedFor.includes(expires)) {
                if (await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>renewed, Math.max(0, remindAt - Date.now()))) continue;
                // Already inside the last 3 days (approved or renewed late): the warning below says it all.
                if (Date.now() < warnAt) await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.sendLicenceReminder({
                    driverId: input.driverId,
                    expires
                });
                state.remindedFor.push(expires);
            }
            if (!state.warnedFor.includes(expires)) {
                if (await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>renewed, Math.max(0, warnAt - Date.now()))) continue;
                await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.sendLicenceLapseWarning({
                    driverId: input.driverId,
                    expires,
                    daysLeft: _src_model_drivers_js__WEBPACK_IMPORTED_MODULE_3__.LICENCE_WARNING_DAYS
                });
                state.warnedFor.push(expires);
            }
        } else if (!state.remindedFor.includes(expires)) {
            if (await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>renewed, Math.max(0, remindAt - Date.now()))) continue;
            await _activities_js__WEBPACK_IMPORTED_MODULE_1__.acts.sendLicenceReminder({
                driverId: input.driverId,
                expires
            });
            state.remindedFor.push(expires);
        }
        // After the reminder: wait for a renewal until the licence has run out, then stop watching.
        const endOfExpiryDay = Date.parse(`${expires}T00:00:00Z`) + 86400000;
        if (!await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>renewed, Math.max(0, endOfExpiryDay - Date.now()))) return state;
    }
}


/***/ },

/***/ "./workflows/index.ts"
/*!****************************!*\
  !*** ./workflows/index.ts ***!
  \****************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   billWeekWorkflow: () => (/* reexport safe */ _billing_workflow_js__WEBPACK_IMPORTED_MODULE_3__.billWeekWorkflow),
/* harmony export */   bookingWorkflow: () => (/* reexport safe */ _bookings_v1_workflow_js__WEBPACK_IMPORTED_MODULE_1__.bookingWorkflow),
/* harmony export */   bookingWorkflowV2: () => (/* reexport safe */ _bookings_workflow_js__WEBPACK_IMPORTED_MODULE_2__.bookingWorkflowV2),
/* harmony export */   driverLicenceWorkflow: () => (/* reexport safe */ _drivers_workflow_js__WEBPACK_IMPORTED_MODULE_6__.driverLicenceWorkflow),
/* harmony export */   driverLocationWatchWorkflow: () => (/* reexport safe */ _drivers_location_watch_js__WEBPACK_IMPORTED_MODULE_8__.driverLocationWatchWorkflow),
/* harmony export */   driverSubscriptionWorkflow: () => (/* reexport safe */ _billing_workflow_js__WEBPACK_IMPORTED_MODULE_3__.driverSubscriptionWorkflow),
/* harmony export */   driverSuspensionWorkflow: () => (/* reexport safe */ _drivers_suspension_js__WEBPACK_IMPORTED_MODULE_7__.driverSuspensionWorkflow),
/* harmony export */   invoiceCollectionWorkflow: () => (/* reexport safe */ _billing_collection_js__WEBPACK_IMPORTED_MODULE_4__.invoiceCollectionWorkflow),
/* harmony export */   opsWatchWorkflow: () => (/* reexport safe */ _ops_workflow_js__WEBPACK_IMPORTED_MODULE_11__.opsWatchWorkflow),
/* harmony export */   partnerBillingWorkflow: () => (/* reexport safe */ _billing_partner_billing_js__WEBPACK_IMPORTED_MODULE_5__.partnerBillingWorkflow),
/* harmony export */   partnerDeliveryWorkflow: () => (/* reexport safe */ _partners_delivery_js__WEBPACK_IMPORTED_MODULE_10__.partnerDeliveryWorkflow),
/* harmony export */   partnerJobWorkflow: () => (/* reexport safe */ _partners_job_workflow_js__WEBPACK_IMPORTED_MODULE_9__.partnerJobWorkflow),
/* harmony export */   quoteWorkflow: () => (/* reexport safe */ _quotes_workflow_js__WEBPACK_IMPORTED_MODULE_0__.quoteWorkflow),
/* harmony export */   recordsRetentionWorkflow: () => (/* reexport safe */ _records_workflow_js__WEBPACK_IMPORTED_MODULE_12__.recordsRetentionWorkflow)
/* harmony export */ });
/* harmony import */ var _quotes_workflow_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! ./quotes/workflow.js */ "./workflows/quotes/workflow.ts");
/* harmony import */ var _bookings_v1_workflow_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./bookings/v1/workflow.js */ "./workflows/bookings/v1/workflow.ts");
/* harmony import */ var _bookings_workflow_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./bookings/workflow.js */ "./workflows/bookings/workflow.ts");
/* harmony import */ var _billing_workflow_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ./billing/workflow.js */ "./workflows/billing/workflow.ts");
/* harmony import */ var _billing_collection_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(/*! ./billing/collection.js */ "./workflows/billing/collection.ts");
/* harmony import */ var _billing_partner_billing_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(/*! ./billing/partner-billing.js */ "./workflows/billing/partner-billing.ts");
/* harmony import */ var _drivers_workflow_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(/*! ./drivers/workflow.js */ "./workflows/drivers/workflow.ts");
/* harmony import */ var _drivers_suspension_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(/*! ./drivers/suspension.js */ "./workflows/drivers/suspension.ts");
/* harmony import */ var _drivers_location_watch_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(/*! ./drivers/location-watch.js */ "./workflows/drivers/location-watch.ts");
/* harmony import */ var _partners_job_workflow_js__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(/*! ./partners/job-workflow.js */ "./workflows/partners/job-workflow.ts");
/* harmony import */ var _partners_delivery_js__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(/*! ./partners/delivery.js */ "./workflows/partners/delivery.ts");
/* harmony import */ var _ops_workflow_js__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(/*! ./ops/workflow.js */ "./workflows/ops/workflow.ts");
/* harmony import */ var _records_workflow_js__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(/*! ./records/workflow.js */ "./workflows/records/workflow.ts");
// The worker's workflow bundle entry point: every workflow type the service runs, and nothing else
// (benchmark baselines run from bench/ on a worker of their own).

// bookingWorkflow is v1, frozen as released in 0.4.0: it finishes the bookings started before v2 and
// replays the released histories; it is deleted once none runs (docs/versioning.md, the drain rule).

// Every booking made since issue 34 (docs/versioning.md): changes freely, with no patched(), until 1.0.0.













/***/ },

/***/ "./workflows/ops/definitions.ts"
/*!**************************************!*\
  !*** ./workflows/ops/definitions.ts ***!
  \**************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   OPS_WATCH_CHECKS_PER_RUN: () => (/* binding */ OPS_WATCH_CHECKS_PER_RUN),
/* harmony export */   OPS_WATCH_WORKFLOW_ID: () => (/* binding */ OPS_WATCH_WORKFLOW_ID),
/* harmony export */   opsWatchStateQuery: () => (/* binding */ opsWatchStateQuery)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _watch_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../watch.js */ "./workflows/watch.ts");


// The ops watcher: one long-running workflow for the whole service (not one per booking), which
// each minute asks Postgres for bookings still without a driver close to pickup and alerts ops
// about each once (workflows/watch.ts). Shared by the worker that starts it and by tests.
/** One id for the service: every worker starts it with USE_EXISTING, so it runs once. */ const OPS_WATCH_WORKFLOW_ID = 'ops-watch:unassigned';
const OPS_WATCH_CHECKS_PER_RUN = _watch_js__WEBPACK_IMPORTED_MODULE_1__.WATCH_CHECKS_PER_RUN;
const opsWatchStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('opsWatchState');


/***/ },

/***/ "./workflows/ops/workflow.ts"
/*!***********************************!*\
  !*** ./workflows/ops/workflow.ts ***!
  \***********************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   opsWatchWorkflow: () => (/* binding */ opsWatchWorkflow)
/* harmony export */ });
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _watch_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../watch.js */ "./workflows/watch.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/ops/definitions.ts");



/**
 * `ops-watch:unassigned`: each minute, alert ops about every booking still without a driver near
 * its pickup. Which bookings and the alert window are the activity's business (the window is
 * configuration, read by the worker, so changing it needs no new workflow); the alert itself is
 * claimed once per booking in Postgres, so a retried activity or two overlapping runs never send
 * two. History is bounded: after a day of looks the workflow continues as new.
 */ async function opsWatchWorkflow(input = {}) {
    await (0,_watch_js__WEBPACK_IMPORTED_MODULE_1__.watchEachMinute)('alerted', input, _definitions_js__WEBPACK_IMPORTED_MODULE_2__.opsWatchStateQuery, async ()=>{
        return (await _activities_js__WEBPACK_IMPORTED_MODULE_0__.acts.alertUnassignedNearPickup()).alerted;
    });
}


/***/ },

/***/ "./workflows/partners/delivery-definitions.ts"
/*!****************************************************!*\
  !*** ./workflows/partners/delivery-definitions.ts ***!
  \****************************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DELIVERY_FAILURE: () => (/* binding */ DELIVERY_FAILURE),
/* harmony export */   deliveryFromWorkflowId: () => (/* binding */ deliveryFromWorkflowId),
/* harmony export */   deliveryWorkflowId: () => (/* binding */ deliveryWorkflowId),
/* harmony export */   eventsRecordedSignal: () => (/* binding */ eventsRecordedSignal)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
// The delivery workflow's Temporal contract: its id, input, signal and failure type, which the event
// pump, the API and the worker agree on. The retry policy is src/model/partners.ts. Imported by
// workflow code, so it stays free of Node built-ins and I/O.

const PREFIX = 'delivery:';
/** One workflow per sender and booking: that booking's events go out one at a time, in order. */ function deliveryWorkflowId(partnerId, bookingRef) {
    return `${PREFIX}${partnerId}:${bookingRef}`;
}
function deliveryFromWorkflowId(workflowId) {
    const m = /^delivery:([a-z0-9][a-z0-9-]{1,39}):([A-Z0-9]+)$/.exec(workflowId);
    return m ? {
        partnerId: m[1],
        bookingRef: m[2]
    } : null;
}
/** Sent when a booking records events (or a replay is asked for): look for due events now. */ const eventsRecordedSignal = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineSignal)('eventsRecorded');
/** The ApplicationFailure type of a failed attempt (retried by the policy). */ const DELIVERY_FAILURE = 'PartnerDeliveryFailed';


/***/ },

/***/ "./workflows/partners/delivery.ts"
/*!****************************************!*\
  !*** ./workflows/partners/delivery.ts ***!
  \****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   partnerDeliveryWorkflow: () => (/* binding */ partnerDeliveryWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _delivery_definitions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./delivery-definitions.js */ "./workflows/partners/delivery-definitions.ts");
/* harmony import */ var _src_model_partners_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ../../src/model/partners.js */ "./src/model/partners.ts");



const db = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyLocalActivities)({
    startToCloseTimeout: '10 seconds',
    retry: {
        initialInterval: '1 second',
        maximumInterval: '1 minute'
    }
});
/**
 * Delivers one booking's status events to its sender (delivery:<partner>:<ref>), strictly in the
 * booking's order: the next event waits until this one is delivered or given up. Each event is
 * one activity whose retry policy is the backoff, so hours of a receiver being down are a few
 * events of history, not one per attempt. What is due is read from Postgres each time round, so
 * a signal only says "look now": repeated or lost signals change nothing (the event pump's sweep
 * starts the workflow for anything left waiting).
 */ async function partnerDeliveryWorkflow(start) {
    var _start_policy;
    const policy = (_start_policy = start.policy) !== null && _start_policy !== void 0 ? _start_policy : _src_model_partners_js__WEBPACK_IMPORTED_MODULE_2__.DEFAULT_DELIVERY_POLICY;
    const send = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
        // One POST has DELIVERY_TIMEOUT_MS (10 s); the rest is the database around it.
        startToCloseTimeout: '1 minute',
        scheduleToCloseTimeout: policy.giveUpAfterSeconds * 1000,
        retry: {
            initialInterval: policy.initialRetrySeconds * 1000,
            backoffCoefficient: 2,
            maximumInterval: policy.maxRetrySeconds * 1000
        }
    });
    const target = {
        partnerId: start.partnerId,
        bookingRef: start.bookingRef
    };
    let lookAgain = false;
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_delivery_definitions_js__WEBPACK_IMPORTED_MODULE_1__.eventsRecordedSignal, ()=>{
        lookAgain = true;
    });
    for(;;){
        lookAgain = false;
        const due = await db.dueDeliveries(target);
        for (const event of due){
            try {
                await send.deliverPartnerEvent({
                    eventId: event.id
                });
            } catch (err) {
                if (!(err instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ActivityFailure)) throw err;
                await db.givePartnerEventUp({
                    eventId: event.id,
                    error: failureText(err)
                });
            }
        }
        if ((0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.workflowInfo)().continueAsNewSuggested) await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.continueAsNew)(start);
        if (due.length > 0 || lookAgain) continue;
        if (await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>lookAgain, policy.idleSeconds * 1000)) continue;
        // Idle: one last look, in case a notification went missing, before closing.
        if ((await db.dueDeliveries(target)).length === 0) return;
    }
}
function failureText(err) {
    var _ref;
    var _err_cause;
    // Out of time: the last attempt's own error is already on the event.
    if (err.retryState === 'TIMEOUT' || err.cause instanceof _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.TimeoutFailure) return 'given up: not delivered within the retry window';
    return (_ref = (_err_cause = err.cause) === null || _err_cause === void 0 ? void 0 : _err_cause.message) !== null && _ref !== void 0 ? _ref : err.message;
}


/***/ },

/***/ "./workflows/partners/job-definitions.ts"
/*!***********************************************!*\
  !*** ./workflows/partners/job-definitions.ts ***!
  \***********************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   partnerJobQuery: () => (/* binding */ partnerJobQuery),
/* harmony export */   partnerJobWorkflowId: () => (/* binding */ partnerJobWorkflowId),
/* harmony export */   submitJobUpdate: () => (/* binding */ submitJobUpdate)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
// The partner job workflow's Temporal contract: its id, input and messages, which the intake routes
// and the worker agree on. What a job's actions, states and outcomes mean is src/model/partners.ts.
// Imported by workflow code, so it stays free of Node built-ins and I/O.

/** One workflow per sender and job reference: every new, amend and cancel for it is applied there, in turn. */ function partnerJobWorkflowId(partnerId, jobRef) {
    return `job:${partnerId}:${jobRef}`;
}
const submitJobUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineUpdate)('submitJob');
const partnerJobQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('partnerJob');


/***/ },

/***/ "./workflows/partners/job-workflow.ts"
/*!********************************************!*\
  !*** ./workflows/partners/job-workflow.ts ***!
  \********************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AMEND_ROUTE_AND_FARE: () => (/* binding */ AMEND_ROUTE_AND_FARE),
/* harmony export */   REBOOK_CANCELLED: () => (/* binding */ REBOOK_CANCELLED),
/* harmony export */   partnerJobWorkflow: () => (/* binding */ partnerJobWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _job_definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./job-definitions.js */ "./workflows/partners/job-definitions.ts");
/* harmony import */ var _src_model_partners_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(/*! ../../src/model/partners.js */ "./src/model/partners.ts");
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else obj[key] = value;
    return obj;
}
function _object_spread(target) {
    for(var i = 1; i < arguments.length; i++){
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);
        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(Object.getOwnPropertySymbols(source).filter(function(sym) {
                return Object.getOwnPropertyDescriptor(source, sym).enumerable;
            }));
        }
        ownKeys.forEach(function(key) {
            _define_property(target, key, source[key]);
        });
    }
    return target;
}
;



// Booking, amending and cancelling wait on the booking workflow. Release 0.1.0 ran them as local
// activities, to save an activity task round trip; but a local activity holds its workflow task (and
// the worker's slot for it) open while it waits, and the booking workflow it waits on needs a slot
// of its own: with a few batches of 100 at once every slot was a job waiting on a booking that could
// not run (issue 22: 112-165 s replies). They are ordinary activities now; histories of 0.1.0 replay
// with the local ones (docs/versioning.md).
const retry = {
    initialInterval: '1 second',
    maximumInterval: '30 seconds'
};
const local = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyLocalActivities)({
    startToCloseTimeout: '1 minute',
    retry
});
const booking = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
    startToCloseTimeout: '1 minute',
    retry
});
const BOOKING_AS_ACTIVITIES = 'partner-job-booking-as-activities';
/** Who books, amends and cancels for this run: ordinary activities, or 0.1.0's local ones on replay. */ const bookingHands = ()=>(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(BOOKING_AS_ACTIVITIES) ? booking : local;
const HOUR_MS = 60 * 60000;
/** A booked job stays changeable (and its retries answerable here) until a day after pickup. */ const LIVE_AFTER_PICKUP_MS = 24 * HOUR_MS;
/** A job that never went live (a held amendment or cancel) is remembered this long in the workflow. */ const UNBOOKED_MS = 7 * 24 * HOUR_MS;
const samePlace = (a, b)=>Math.abs(a.lat - b.lat) < 1e-5 && Math.abs(a.lon - b.lon) < 1e-5;
/**
 * Patch (issue 22): an amendment may move the pickup or drop-off (until the driver is on the way)
 * and change the fare, re-priced by the intake; release 0.1.0 refused both (amend_route_change).
 * Checked only for an amendment that changes one of them.
 */ const AMEND_ROUTE_AND_FARE = 'partner-amend-route-and-fare';
/**
 * Patch (issue 22): a cancelled job's reference sent as a new with details never sent before books
 * afresh (rebooked); release 0.1.0 answered already_cancelled. Checked only for such a new.
 */ const REBOOK_CANCELLED = 'partner-rebook-cancelled';
function routeOf(b) {
    return {
        pickupQuery: b.pickupQuery,
        dropoffQuery: b.dropoffQuery,
        pickup: b.pickup,
        dropoff: b.dropoff,
        pickupArea: b.pickupArea,
        distanceM: b.distanceM,
        durationS: b.durationS
    };
}
/** One job reference's record, as this workflow and partner_jobs in Postgres keep it. */ class PartnerJob {
    /** This exact job was sent for this reference before (a new, or an amendment applied). */ seen(fingerprint) {
        return fingerprint === this.newFingerprint || this.amendFingerprints.includes(fingerprint);
    }
    answer(outcome, code, message) {
        return {
            outcome,
            code,
            message,
            bookingRef: this.bookingRef,
            bookingStatus: this.bookingStatus,
            state: this.state
        };
    }
    /** Saves the record, then answers that the submission was accepted. */ async saved(code, message) {
        await this.save();
        return this.answer('accepted', code, message);
    }
    save() {
        return _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.savePartnerJobRecord({
            partnerId: this.partnerId,
            jobRef: this.jobRef,
            state: this.state === 'none' ? 'pending' : this.state,
            bookingRef: this.bookingRef,
            newFingerprint: this.newFingerprint,
            amendFingerprints: this.amendFingerprints,
            booked: this.booked,
            held: this.held,
            heldFingerprint: this.heldFingerprint
        });
    }
    /** An earlier run for this reference (closed, or past the server's retention) left its record. */ async load() {
        const record = await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.loadPartnerJobRecord({
            partnerId: this.partnerId,
            jobRef: this.jobRef
        });
        if (!record) return;
        this.state = record.state === 'pending' && !record.held ? 'none' : record.state;
        this.bookingRef = record.bookingRef;
        this.bookingStatus = record.bookingStatus;
        this.booked = record.booked;
        this.held = record.held;
        this.heldFingerprint = record.heldFingerprint;
        this.newFingerprint = record.newFingerprint;
        this.amendFingerprints.push(...record.amendFingerprints);
    }
    constructor(partnerId, jobRef){
        _define_property(this, "partnerId", void 0);
        _define_property(this, "jobRef", void 0);
        _define_property(this, "state", void 0);
        _define_property(this, "bookingRef", void 0);
        _define_property(this, "bookingStatus", void 0);
        _define_property(this, "booked", void 0);
        _define_property(this, "held", void 0);
        _define_property(this, "heldFingerprint", void 0);
        _define_property(this, "newFingerprint", void 0);
        /** Every amendment applied, and (since a cancelled reference can be booked again) every earlier new. */ _define_property(this, "amendFingerprints", void 0);
        this.partnerId = partnerId;
        this.jobRef = jobRef;
        this.state = 'none';
        this.bookingRef = null;
        this.bookingStatus = null;
        this.booked = null;
        this.held = null;
        this.heldFingerprint = null;
        this.newFingerprint = null;
        this.amendFingerprints = [];
    }
}
/**
 * One sender's job reference (job:<partner>:<jobRef>). Senders retry, duplicate, batch and reorder,
 * so every submission for the reference is applied here one at a time, whatever order they arrive
 * in: a repeated new is the same booking, an amendment before its new is held and booked with it,
 * a cancel before its new is remembered so the new never dispatches, and nothing changes a job
 * once it is cancelled. The ride itself is an ordinary booking workflow; this one only decides.
 * The outcome of each submission is also kept in Postgres (partner_jobs), which outlives the
 * workflow: a later run for the same reference starts from it.
 */ async function partnerJobWorkflow(start) {
    const job = new PartnerJob(start.partnerId, start.jobRef);
    let lastChangeAt = Date.now();
    // Submissions are served strictly in arrival order: each waits for its ticket.
    let loaded = false;
    let issued = 0;
    let serving = 1;
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_job_definitions_js__WEBPACK_IMPORTED_MODULE_2__.partnerJobQuery, ()=>({
            partnerId: job.partnerId,
            jobRef: job.jobRef,
            state: job.state,
            bookingRef: job.bookingRef
        }));
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_job_definitions_js__WEBPACK_IMPORTED_MODULE_2__.submitJobUpdate, async (sub)=>{
        const ticket = ++issued;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>loaded && serving === ticket);
        try {
            return await apply(job, sub);
        } finally{
            serving += 1;
            lastChangeAt = Date.now();
        }
    });
    await job.load();
    loaded = true;
    // Open while the job can still change: a day past pickup once booked, a week otherwise.
    for(;;){
        const seen = lastChangeAt;
        const closeAt = job.state === 'live' && job.booked ? Date.parse(job.booked.job.pickupAt) + LIVE_AFTER_PICKUP_MS : lastChangeAt + UNBOOKED_MS;
        const wait = closeAt - Date.now();
        if (wait <= 0 && serving > issued) break;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>lastChangeAt !== seen, Math.max(wait, 1000));
    }
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
    return job.state;
}
async function apply(job, sub) {
    switch(sub.action){
        case 'new':
            return applyNew(job, sub);
        case 'amend':
            return applyAmend(job, sub);
        case 'cancel':
            return applyCancel(job, sub);
    }
}
async function applyNew(job, sub) {
    var _job_held;
    if (job.state === 'cancelled') {
        if (!job.bookingRef) return job.answer('accepted', 'cancelled_before_new', 'A cancel for this job arrived first: it will not be dispatched.');
        // The job as it was sent before is a retry, which never changes anything; different details book afresh.
        if (job.seen(sub.fingerprint) || !(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(REBOOK_CANCELLED)) {
            return job.answer('accepted', 'already_cancelled', _src_model_partners_js__WEBPACK_IMPORTED_MODULE_3__.CANCELLED_RETRY_MESSAGE);
        }
        return rebook(job, sub);
    }
    if (job.state === 'live') {
        if (sub.fingerprint === job.newFingerprint) return job.answer('accepted', 'duplicate', 'Already booked: the same booking.');
        return job.answer('rejected', 'job_ref_conflict', 'This job reference is already booked with different details; send action amend to change it.');
    }
    if (sub.limit && !await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.countPartnerJob(_object_spread({
        partnerId: job.partnerId,
        jobRef: job.jobRef
    }, sub.limit))) {
        return dailyLimitReached(job, sub.limit.limit);
    }
    // An amendment that arrived first is the job as it stands now: book that.
    const input = (_job_held = job.held) !== null && _job_held !== void 0 ? _job_held : sub.booking;
    const created = await bookingHands().createPartnerBooking({
        input
    });
    job.bookingRef = created.ref;
    job.bookingStatus = created.status;
    job.booked = input;
    job.newFingerprint = sub.fingerprint;
    if (job.held && job.heldFingerprint) job.amendFingerprints.push(job.heldFingerprint);
    const withHeld = job.held !== null;
    job.held = null;
    job.heldFingerprint = null;
    job.state = 'live';
    return job.saved('created', withHeld ? 'Booked, with the amendment that arrived before it.' : 'Booked.');
}
/** A new the sender's daily limit has no room for: refused, nothing booked. */ function dailyLimitReached(job, limit) {
    return job.answer('rejected', 'daily_limit_reached', `The daily limit of ${limit} new jobs is reached; send it again tomorrow.`);
}
/** A cancelled job's reference sent as a new with different details: a booking of its own. */ async function rebook(job, sub) {
    if (sub.limit && !await _activities_js__WEBPACK_IMPORTED_MODULE_1__.db.countPartnerJob(_object_spread({
        partnerId: job.partnerId,
        jobRef: job.jobRef
    }, sub.limit))) {
        return dailyLimitReached(job, sub.limit.limit);
    }
    const cancelledRef = job.bookingRef;
    const input = sub.booking;
    const created = await bookingHands().createPartnerBooking({
        input,
        rebooking: sub.fingerprint
    });
    // The cancelled job's details stay known: its new sent again later is never booked a third time.
    if (job.newFingerprint) job.amendFingerprints.push(job.newFingerprint);
    job.bookingRef = created.ref;
    job.bookingStatus = created.status;
    job.booked = input;
    job.newFingerprint = sub.fingerprint;
    job.state = 'live';
    return job.saved('rebooked', `Booked again as ${created.ref}: the earlier booking ${cancelledRef} stays cancelled.`);
}
async function applyAmend(job, sub) {
    if (job.state === 'cancelled') return job.answer('rejected', 'job_cancelled', 'This job was cancelled; send a new job with a new reference.');
    if (job.state !== 'live') return holdAmendment(job, sub);
    if (job.amendFingerprints.includes(sub.fingerprint) || sub.fingerprint === job.newFingerprint) {
        return job.answer('accepted', 'duplicate', 'Already applied.');
    }
    return amendBooking(job, sub.booking, sub.fingerprint);
}
/** An amendment before its new: held, and booked with the new when it arrives. */ async function holdAmendment(job, sub) {
    job.held = sub.booking;
    job.heldFingerprint = sub.fingerprint;
    job.state = 'pending';
    return job.saved('amendment_held', 'No new job with this reference yet: the amendment is held and booked when it arrives.');
}
/** An amendment to a booked job: its booking is changed, unless the ride is past changing. */ async function amendBooking(job, next, fingerprint) {
    const current = job.booked;
    const routeChanged = !samePlace(next.booking.pickup, current.booking.pickup) || !samePlace(next.booking.dropoff, current.booking.dropoff);
    const fareChanged = next.booking.farePence !== current.booking.farePence || next.booking.fareSource !== current.booking.fareSource;
    if ((routeChanged || fareChanged) && !(0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.patched)(AMEND_ROUTE_AND_FARE)) {
        return job.answer('rejected', 'amend_route_change', 'An amendment cannot change the pickup, drop-off or fare of a booked job: cancel it and send a new job.');
    }
    // The intake priced the amended job: the sender's agreed fare if it sent one, else the tariff's
    // for the new time and route (a move into the night rate costs the night rate).
    const changed = await bookingHands().amendPartnerBooking({
        ref: job.bookingRef,
        changes: _object_spread({
            pickupAt: next.job.pickupAt,
            passengers: next.job.passengers,
            vehicleType: next.job.vehicleType,
            wheelchair: next.job.wheelchair,
            notes: next.job.notes
        }, routeChanged ? {
            route: routeOf(next.booking)
        } : {}, fareChanged ? {
            fare: {
                farePence: next.booking.farePence,
                fareSource: next.booking.fareSource
            }
        } : {})
    });
    job.bookingStatus = changed.status;
    if (!changed.ok) return amendmentRefused(job, changed);
    job.booked = next;
    job.amendFingerprints.push(fingerprint);
    await job.save();
    const what = [
        routeChanged ? 'new pickup or drop-off: re-priced and dispatched afresh' : null,
        fareChanged ? `fare now £${(next.booking.farePence / 100).toFixed(2)}` : null
    ].filter(Boolean);
    return job.answer('accepted', 'amended', what.length > 0 ? `Amended (${what.join('; ')}).` : 'Amended.');
}
/** The booking refused the change: the driver is on the way (the route is fixed), or it is over. */ function amendmentRefused(job, changed) {
    var _changed_status;
    if (changed.code === 'amend_driver_on_the_way') {
        var _changed_status1;
        return job.answer('rejected', 'amend_driver_on_the_way', `The driver is on the way (${(_changed_status1 = changed.status) !== null && _changed_status1 !== void 0 ? _changed_status1 : 'en_route'}): the pickup and drop-off can no longer change. Send an amendment with the booked pickup and drop-off to change anything else, or cancel the job and send it again as a new job (a new booking).`);
    }
    return job.answer('rejected', 'amend_too_late', `The booking is ${(_changed_status = changed.status) !== null && _changed_status !== void 0 ? _changed_status : 'closed'}: it can no longer be amended.`);
}
async function applyCancel(job, sub) {
    var _sub_reason, _changed_status;
    if (job.state === 'cancelled') return job.answer('accepted', 'already_cancelled', 'Already cancelled.');
    if (job.state !== 'live') {
        job.state = 'cancelled';
        job.held = null;
        return job.saved('cancel_held', 'No new job with this reference yet: when it arrives it will not be dispatched.');
    }
    const changed = await bookingHands().cancelPartnerBooking({
        ref: job.bookingRef,
        reason: (_sub_reason = sub.reason) !== null && _sub_reason !== void 0 ? _sub_reason : null
    });
    job.bookingStatus = changed.status;
    if (!changed.ok && changed.code === 'trip_in_progress') {
        return job.answer('rejected', 'trip_in_progress', 'The passenger is on board: a trip under way cannot be cancelled.');
    }
    if (!changed.ok) return job.answer('rejected', 'job_completed', `The booking is ${(_changed_status = changed.status) !== null && _changed_status !== void 0 ? _changed_status : 'closed'}: it can no longer be cancelled.`);
    job.state = 'cancelled';
    return job.saved('cancelled', 'Cancelled.');
}


/***/ },

/***/ "./workflows/quotes/definitions.ts"
/*!*****************************************!*\
  !*** ./workflows/quotes/definitions.ts ***!
  \*****************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   QUOTE_WORKFLOW_PREFIX: () => (/* binding */ QUOTE_WORKFLOW_PREFIX),
/* harmony export */   QuoteFailure: () => (/* binding */ QuoteFailure),
/* harmony export */   quoteIdFromWorkflowId: () => (/* binding */ quoteIdFromWorkflowId),
/* harmony export */   quoteStateQuery: () => (/* binding */ quoteStateQuery),
/* harmony export */   quoteWorkflowId: () => (/* binding */ quoteWorkflowId),
/* harmony export */   redeemQuoteUpdate: () => (/* binding */ redeemQuoteUpdate)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
// The quote workflow's Temporal contract: its id, input, messages and failure types, which the HTTP
// layer and the worker must agree on. What a quote is (its statuses, its redemption) is
// src/model/quotes.ts. Imported by workflow code, so it stays free of Node built-ins and I/O.

const QUOTE_WORKFLOW_PREFIX = 'quote:';
function quoteWorkflowId(quoteId) {
    return `${QUOTE_WORKFLOW_PREFIX}${quoteId}`;
}
function quoteIdFromWorkflowId(workflowId) {
    return workflowId.startsWith(QUOTE_WORKFLOW_PREFIX) ? workflowId.slice(QUOTE_WORKFLOW_PREFIX.length) : null;
}
/** ApplicationFailure types the redeem update fails with; the HTTP layer maps them to 410 / 409. */ const QuoteFailure = {
    expired: 'QuoteExpired',
    alreadyRedeemed: 'QuoteAlreadyRedeemed'
};
const redeemQuoteUpdate = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineUpdate)('redeemQuote');
const quoteStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('quoteState');


/***/ },

/***/ "./workflows/quotes/workflow.ts"
/*!**************************************!*\
  !*** ./workflows/quotes/workflow.ts ***!
  \**************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   quoteWorkflow: () => (/* binding */ quoteWorkflow)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ./definitions.js */ "./workflows/quotes/definitions.ts");


const { markQuoteRedeemed, markQuoteExpired } = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.proxyActivities)({
    startToCloseTimeout: '10 seconds',
    retry: {
        initialInterval: '500 ms',
        maximumInterval: '30 seconds'
    }
});
/**
 * A quote is open until it is redeemed once or its validity runs out. Redemption is an Update so
 * the booking request learns synchronously whether it won; the validator turns away late and
 * competing requests before they reach history.
 */ async function quoteWorkflow(input) {
    const state = {
        quoteId: input.quoteId,
        status: 'open',
        expiresAt: input.expiresAt,
        redemption: null
    };
    const rejectUnlessRedeemable = (req)=>{
        if (state.status === 'expired') {
            throw _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure.nonRetryable(`quote ${input.quoteId} expired at ${input.expiresAt}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.QuoteFailure.expired);
        }
        if (state.redemption && state.redemption.requestId !== req.requestId) {
            throw _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.ApplicationFailure.nonRetryable(`quote ${input.quoteId} was already redeemed by booking ${state.redemption.bookingRef}`, _definitions_js__WEBPACK_IMPORTED_MODULE_1__.QuoteFailure.alreadyRedeemed, {
                bookingRef: state.redemption.bookingRef
            });
        }
    };
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.quoteStateQuery, ()=>state);
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(_definitions_js__WEBPACK_IMPORTED_MODULE_1__.redeemQuoteUpdate, async (req)=>{
        // Re-checked here as well as in the validator: the state may have moved between the two.
        rejectUnlessRedeemable(req);
        if (state.redemption) return state.redemption;
        // Claim synchronously, before the first await, so a competing update sees it.
        const redemption = {
            quoteId: input.quoteId,
            requestId: req.requestId,
            bookingRef: req.bookingRef,
            redeemedAt: new Date().toISOString()
        };
        state.status = 'redeemed';
        state.redemption = redemption;
        await markQuoteRedeemed(redemption);
        return redemption;
    }, {
        validator: rejectUnlessRedeemable
    });
    const remainingMs = Math.max(0, Date.parse(input.expiresAt) - Date.now());
    const redeemed = await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(()=>state.status !== 'open', remainingMs);
    if (!redeemed) {
        state.status = 'expired';
        await markQuoteExpired({
            quoteId: input.quoteId
        });
    }
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.condition)(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.allHandlersFinished);
    return state;
}


/***/ },

/***/ "./workflows/records/definitions.ts"
/*!******************************************!*\
  !*** ./workflows/records/definitions.ts ***!
  \******************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   RECORDS_RETENTION_WORKFLOW_ID: () => (/* binding */ RECORDS_RETENTION_WORKFLOW_ID),
/* harmony export */   recordsRetentionStateQuery: () => (/* binding */ recordsRetentionStateQuery)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);

// The booking records' retention (docs/records.md): one long-running workflow for the service,
// which each minute erases the records whose authority's retention is over (workflows/watch.ts).
/** One id for the service: every worker starts it with USE_EXISTING, so it runs once. */ const RECORDS_RETENTION_WORKFLOW_ID = 'records:retention';
const recordsRetentionStateQuery = (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.defineQuery)('recordsRetentionState');


/***/ },

/***/ "./workflows/records/workflow.ts"
/*!***************************************!*\
  !*** ./workflows/records/workflow.ts ***!
  \***************************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   recordsRetentionWorkflow: () => (/* binding */ recordsRetentionWorkflow)
/* harmony export */ });
/* harmony import */ var _activities_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! ../activities.js */ "./workflows/activities.ts");
/* harmony import */ var _watch_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(/*! ../watch.js */ "./workflows/watch.ts");
/* harmony import */ var _definitions_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(/*! ./definitions.js */ "./workflows/records/definitions.ts");



/**
 * `records:retention`: each minute, erase the booking records whose licensing authority's retention
 * is over, with the passenger's personal data on the booking. Which records, and each authority's
 * period, are the activity's and Postgres's business (set by staff, so a change needs no new
 * workflow); history is bounded by continuing as new after a day of looks.
 */ async function recordsRetentionWorkflow(input = {}) {
    await (0,_watch_js__WEBPACK_IMPORTED_MODULE_1__.watchEachMinute)('erased', input, _definitions_js__WEBPACK_IMPORTED_MODULE_2__.recordsRetentionStateQuery, async ()=>{
        return (await _activities_js__WEBPACK_IMPORTED_MODULE_0__.acts.eraseExpiredRecords()).erased;
    });
}


/***/ },

/***/ "./workflows/watch.ts"
/*!****************************!*\
  !*** ./workflows/watch.ts ***!
  \****************************/
(__unused_webpack_module, __webpack_exports__, __webpack_require__) {

"use strict";
__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   WATCH_CHECKS_PER_RUN: () => (/* binding */ WATCH_CHECKS_PER_RUN),
/* harmony export */   WATCH_INTERVAL_MS: () => (/* binding */ WATCH_INTERVAL_MS),
/* harmony export */   watchEachMinute: () => (/* binding */ watchEachMinute)
/* harmony export */ });
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(/*! @temporalio/workflow */ "./node_modules/@temporalio/workflow/lib/index.js");
/* harmony import */ var _temporalio_workflow__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__);
// The service's minute-by-minute watches (ops-watch:unassigned, drivers:location-watch): one
// long-running workflow each, which looks once a minute and continues as new after a day of looks
// so its history stays bounded. Each names what it counts (alerted, warned); the name is part of its
// query answer and of its continue-as-new input, which released histories carry.

/** How often a watch looks. */ const WATCH_INTERVAL_MS = 60000;
/** Looks per run before continuing as new (a day of minutes: about 7,000 history events). */ const WATCH_CHECKS_PER_RUN = 1440;
/**
 * A day of looks, one a minute (`look` returns what it acted on), answering `query` with the
 * counts, then continue-as-new with the total.
 */ async function watchEachMinute(counted, input, query, look) {
    var _input_total;
    const total = `${counted}Total`;
    let checks = 0;
    let inRun = 0;
    let soFar = (_input_total = input[total]) !== null && _input_total !== void 0 ? _input_total : 0;
    (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.setHandler)(query, ()=>({
            checks,
            [counted]: inRun,
            [total]: soFar
        }));
    while(checks < WATCH_CHECKS_PER_RUN){
        const acted = await look();
        checks += 1;
        inRun += acted.length;
        soFar += acted.length;
        await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.sleep)(WATCH_INTERVAL_MS);
    }
    await (0,_temporalio_workflow__WEBPACK_IMPORTED_MODULE_0__.continueAsNew)({
        [total]: soFar
    });
}


/***/ },

/***/ "?31ff"
/*!*****************************************************!*\
  !*** __temporal_custom_failure_converter (ignored) ***!
  \*****************************************************/
() {

/* (ignored) */

/***/ },

/***/ "?2065"
/*!*****************************************************!*\
  !*** __temporal_custom_payload_converter (ignored) ***!
  \*****************************************************/
() {

/* (ignored) */

/***/ },

/***/ "./node_modules/ms/dist/index.cjs"
/*!****************************************!*\
  !*** ./node_modules/ms/dist/index.cjs ***!
  \****************************************/
(module, exports) {

"use strict";

Object.defineProperty(exports, "__esModule", ({ value: true }));
// Helpers.
const s = 1000;
const m = s * 60;
const h = m * 60;
const d = h * 24;
const w = d * 7;
const y = d * 365.25;
function ms(value, options) {
    try {
        if (typeof value === 'string' && value.length > 0) {
            return parse(value);
        }
        else if (typeof value === 'number' && isFinite(value)) {
            return options?.long ? fmtLong(value) : fmtShort(value);
        }
        throw new Error('Value is not a string or number.');
    }
    catch (error) {
        const message = isError(error)
            ? `${error.message}. value=${JSON.stringify(value)}`
            : 'An unknown error has occured.';
        throw new Error(message);
    }
}
/**
 * Parse the given `str` and return milliseconds.
 */
function parse(str) {
    str = String(str);
    if (str.length > 100) {
        throw new Error('Value exceeds the maximum length of 100 characters.');
    }
    const match = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i.exec(str);
    if (!match) {
        return NaN;
    }
    const n = parseFloat(match[1]);
    const type = (match[2] || 'ms').toLowerCase();
    switch (type) {
        case 'years':
        case 'year':
        case 'yrs':
        case 'yr':
        case 'y':
            return n * y;
        case 'weeks':
        case 'week':
        case 'w':
            return n * w;
        case 'days':
        case 'day':
        case 'd':
            return n * d;
        case 'hours':
        case 'hour':
        case 'hrs':
        case 'hr':
        case 'h':
            return n * h;
        case 'minutes':
        case 'minute':
        case 'mins':
        case 'min':
        case 'm':
            return n * m;
        case 'seconds':
        case 'second':
        case 'secs':
        case 'sec':
        case 's':
            return n * s;
        case 'milliseconds':
        case 'millisecond':
        case 'msecs':
        case 'msec':
        case 'ms':
            return n;
        default:
            // This should never occur.
            throw new Error(`The unit ${type} was matched, but no matching case exists.`);
    }
}
exports["default"] = ms;
/**
 * Short format for `ms`.
 */
function fmtShort(ms) {
    const msAbs = Math.abs(ms);
    if (msAbs >= d) {
        return `${Math.round(ms / d)}d`;
    }
    if (msAbs >= h) {
        return `${Math.round(ms / h)}h`;
    }
    if (msAbs >= m) {
        return `${Math.round(ms / m)}m`;
    }
    if (msAbs >= s) {
        return `${Math.round(ms / s)}s`;
    }
    return `${ms}ms`;
}
/**
 * Long format for `ms`.
 */
function fmtLong(ms) {
    const msAbs = Math.abs(ms);
    if (msAbs >= d) {
        return plural(ms, msAbs, d, 'day');
    }
    if (msAbs >= h) {
        return plural(ms, msAbs, h, 'hour');
    }
    if (msAbs >= m) {
        return plural(ms, msAbs, m, 'minute');
    }
    if (msAbs >= s) {
        return plural(ms, msAbs, s, 'second');
    }
    return `${ms} ms`;
}
/**
 * Pluralization helper.
 */
function plural(ms, msAbs, n, name) {
    const isPlural = msAbs >= n * 1.5;
    return `${Math.round(ms / n)} ${name}${isPlural ? 's' : ''}`;
}
/**
 * A type guard for errors.
 */
function isError(error) {
    return typeof error === 'object' && error !== null && 'message' in error;
}
module.exports = exports.default;
module.exports["default"] = exports.default;


/***/ },

/***/ "./node_modules/long/umd/index.js"
/*!****************************************!*\
  !*** ./node_modules/long/umd/index.js ***!
  \****************************************/
(module, exports) {

var __WEBPACK_AMD_DEFINE_ARRAY__, __WEBPACK_AMD_DEFINE_RESULT__;// GENERATED FILE. DO NOT EDIT.
(function (global, factory) {
  function preferDefault(exports) {
    return exports.default || exports;
  }
  if (true) {
    !(__WEBPACK_AMD_DEFINE_ARRAY__ = [], __WEBPACK_AMD_DEFINE_RESULT__ = (function () {
      var exports = {};
      factory(exports);
      return preferDefault(exports);
    }).apply(exports, __WEBPACK_AMD_DEFINE_ARRAY__),
		__WEBPACK_AMD_DEFINE_RESULT__ !== undefined && (module.exports = __WEBPACK_AMD_DEFINE_RESULT__));
  } else // removed by dead control flow
{}
})(
  typeof globalThis !== "undefined"
    ? globalThis
    : typeof self !== "undefined"
      ? self
      : this,
  function (_exports) {
    "use strict";

    Object.defineProperty(_exports, "__esModule", {
      value: true,
    });
    _exports.default = void 0;
    /**
     * @license
     * Copyright 2009 The Closure Library Authors
     * Copyright 2020 Daniel Wirtz / The long.js Authors.
     *
     * Licensed under the Apache License, Version 2.0 (the "License");
     * you may not use this file except in compliance with the License.
     * You may obtain a copy of the License at
     *
     *     http://www.apache.org/licenses/LICENSE-2.0
     *
     * Unless required by applicable law or agreed to in writing, software
     * distributed under the License is distributed on an "AS IS" BASIS,
     * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
     * See the License for the specific language governing permissions and
     * limitations under the License.
     *
     * SPDX-License-Identifier: Apache-2.0
     */

    // WebAssembly optimizations to do native i64 multiplication and divide
    var wasm = null;
    try {
      wasm = new WebAssembly.Instance(
        new WebAssembly.Module(
          new Uint8Array([
            // \0asm
            0, 97, 115, 109,
            // version 1
            1, 0, 0, 0,
            // section "type"
            1, 13, 2,
            // 0, () => i32
            96, 0, 1, 127,
            // 1, (i32, i32, i32, i32) => i32
            96, 4, 127, 127, 127, 127, 1, 127,
            // section "function"
            3, 7, 6,
            // 0, type 0
            0,
            // 1, type 1
            1,
            // 2, type 1
            1,
            // 3, type 1
            1,
            // 4, type 1
            1,
            // 5, type 1
            1,
            // section "global"
            6, 6, 1,
            // 0, "high", mutable i32
            127, 1, 65, 0, 11,
            // section "export"
            7, 50, 6,
            // 0, "mul"
            3, 109, 117, 108, 0, 1,
            // 1, "div_s"
            5, 100, 105, 118, 95, 115, 0, 2,
            // 2, "div_u"
            5, 100, 105, 118, 95, 117, 0, 3,
            // 3, "rem_s"
            5, 114, 101, 109, 95, 115, 0, 4,
            // 4, "rem_u"
            5, 114, 101, 109, 95, 117, 0, 5,
            // 5, "get_high"
            8, 103, 101, 116, 95, 104, 105, 103, 104, 0, 0,
            // section "code"
            10, 191, 1, 6,
            // 0, "get_high"
            4, 0, 35, 0, 11,
            // 1, "mul"
            36, 1, 1, 126, 32, 0, 173, 32, 1, 173, 66, 32, 134, 132, 32, 2, 173,
            32, 3, 173, 66, 32, 134, 132, 126, 34, 4, 66, 32, 135, 167, 36, 0,
            32, 4, 167, 11,
            // 2, "div_s"
            36, 1, 1, 126, 32, 0, 173, 32, 1, 173, 66, 32, 134, 132, 32, 2, 173,
            32, 3, 173, 66, 32, 134, 132, 127, 34, 4, 66, 32, 135, 167, 36, 0,
            32, 4, 167, 11,
            // 3, "div_u"
            36, 1, 1, 126, 32, 0, 173, 32, 1, 173, 66, 32, 134, 132, 32, 2, 173,
            32, 3, 173, 66, 32, 134, 132, 128, 34, 4, 66, 32, 135, 167, 36, 0,
            32, 4, 167, 11,
            // 4, "rem_s"
            36, 1, 1, 126, 32, 0, 173, 32, 1, 173, 66, 32, 134, 132, 32, 2, 173,
            32, 3, 173, 66, 32, 134, 132, 129, 34, 4, 66, 32, 135, 167, 36, 0,
            32, 4, 167, 11,
            // 5, "rem_u"
            36, 1, 1, 126, 32, 0, 173, 32, 1, 173, 66, 32, 134, 132, 32, 2, 173,
            32, 3, 173, 66, 32, 134, 132, 130, 34, 4, 66, 32, 135, 167, 36, 0,
            32, 4, 167, 11,
          ]),
        ),
        {},
      ).exports;
    } catch {
      // no wasm support :(
    }

    /**
     * Constructs a 64 bit two's-complement integer, given its low and high 32 bit values as *signed* integers.
     *  See the from* functions below for more convenient ways of constructing Longs.
     * @exports Long
     * @class A Long class for representing a 64 bit two's-complement integer value.
     * @param {number} low The low (signed) 32 bits of the long
     * @param {number} high The high (signed) 32 bits of the long
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @constructor
     */
    function Long(low, high, unsigned) {
      /**
       * The low 32 bits as a signed value.
       * @type {number}
       */
      this.low = low | 0;

      /**
       * The high 32 bits as a signed value.
       * @type {number}
       */
      this.high = high | 0;

      /**
       * Whether unsigned or not.
       * @type {boolean}
       */
      this.unsigned = !!unsigned;
    }

    // The internal representation of a long is the two given signed, 32-bit values.
    // We use 32-bit pieces because these are the size of integers on which
    // Javascript performs bit-operations.  For operations like addition and
    // multiplication, we split each number into 16 bit pieces, which can easily be
    // multiplied within Javascript's floating-point representation without overflow
    // or change in sign.
    //
    // In the algorithms below, we frequently reduce the negative case to the
    // positive case by negating the input(s) and then post-processing the result.
    // Note that we must ALWAYS check specially whether those values are MIN_VALUE
    // (-2^63) because -MIN_VALUE == MIN_VALUE (since 2^63 cannot be represented as
    // a positive number, it overflows back into a negative).  Not handling this
    // case would often result in infinite recursion.
    //
    // Common constant values ZERO, ONE, NEG_ONE, etc. are defined below the from*
    // methods on which they depend.

    /**
     * An indicator used to reliably determine if an object is a Long or not.
     * @type {boolean}
     * @const
     * @private
     */
    Long.prototype.__isLong__;
    Object.defineProperty(Long.prototype, "__isLong__", {
      value: true,
    });

    /**
     * @function
     * @param {*} obj Object
     * @returns {boolean}
     * @inner
     */
    function isLong(obj) {
      return (obj && obj["__isLong__"]) === true;
    }

    /**
     * @function
     * @param {*} value number
     * @returns {number}
     * @inner
     */
    function ctz32(value) {
      var c = Math.clz32(value & -value);
      return value ? 31 - c : c;
    }

    /**
     * Tests if the specified object is a Long.
     * @function
     * @param {*} obj Object
     * @returns {boolean}
     */
    Long.isLong = isLong;

    /**
     * A cache of the Long representations of small integer values.
     * @type {!Object}
     * @inner
     */
    var INT_CACHE = {};

    /**
     * A cache of the Long representations of small unsigned integer values.
     * @type {!Object}
     * @inner
     */
    var UINT_CACHE = {};

    /**
     * @param {number} value
     * @param {boolean=} unsigned
     * @returns {!Long}
     * @inner
     */
    function fromInt(value, unsigned) {
      var obj, cachedObj, cache;
      if (unsigned) {
        value >>>= 0;
        if ((cache = 0 <= value && value < 256)) {
          cachedObj = UINT_CACHE[value];
          if (cachedObj) return cachedObj;
        }
        obj = fromBits(value, 0, true);
        if (cache) UINT_CACHE[value] = obj;
        return obj;
      } else {
        value |= 0;
        if ((cache = -128 <= value && value < 128)) {
          cachedObj = INT_CACHE[value];
          if (cachedObj) return cachedObj;
        }
        obj = fromBits(value, value < 0 ? -1 : 0, false);
        if (cache) INT_CACHE[value] = obj;
        return obj;
      }
    }

    /**
     * Returns a Long representing the given 32 bit integer value.
     * @function
     * @param {number} value The 32 bit integer in question
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @returns {!Long} The corresponding Long value
     */
    Long.fromInt = fromInt;

    /**
     * @param {number} value
     * @param {boolean=} unsigned
     * @returns {!Long}
     * @inner
     */
    function fromNumber(value, unsigned) {
      if (isNaN(value)) return unsigned ? UZERO : ZERO;
      if (unsigned) {
        if (value < 0) return UZERO;
        if (value >= TWO_PWR_64_DBL) return MAX_UNSIGNED_VALUE;
      } else {
        if (value <= -TWO_PWR_63_DBL) return MIN_VALUE;
        if (value + 1 >= TWO_PWR_63_DBL) return MAX_VALUE;
      }
      if (value < 0) return fromNumber(-value, unsigned).neg();
      return fromBits(
        value % TWO_PWR_32_DBL | 0,
        (value / TWO_PWR_32_DBL) | 0,
        unsigned,
      );
    }

    /**
     * Returns a Long representing the given value, provided that it is a finite number. Otherwise, zero is returned.
     * @function
     * @param {number} value The number in question
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @returns {!Long} The corresponding Long value
     */
    Long.fromNumber = fromNumber;

    /**
     * @param {number} lowBits
     * @param {number} highBits
     * @param {boolean=} unsigned
     * @returns {!Long}
     * @inner
     */
    function fromBits(lowBits, highBits, unsigned) {
      return new Long(lowBits, highBits, unsigned);
    }

    /**
     * Returns a Long representing the 64 bit integer that comes by concatenating the given low and high bits. Each is
     *  assumed to use 32 bits.
     * @function
     * @param {number} lowBits The low 32 bits
     * @param {number} highBits The high 32 bits
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @returns {!Long} The corresponding Long value
     */
    Long.fromBits = fromBits;

    /**
     * @function
     * @param {number} base
     * @param {number} exponent
     * @returns {number}
     * @inner
     */
    var pow_dbl = Math.pow; // Used 4 times (4*8 to 15+4)

    /**
     * @param {string} str
     * @param {(boolean|number)=} unsigned
     * @param {number=} radix
     * @returns {!Long}
     * @inner
     */
    function fromString(str, unsigned, radix) {
      if (str.length === 0) throw Error("empty string");
      if (typeof unsigned === "number") {
        // For goog.math.long compatibility
        radix = unsigned;
        unsigned = false;
      } else {
        unsigned = !!unsigned;
      }
      if (
        str === "NaN" ||
        str === "Infinity" ||
        str === "+Infinity" ||
        str === "-Infinity"
      )
        return unsigned ? UZERO : ZERO;
      radix = radix || 10;
      if (radix < 2 || 36 < radix) throw RangeError("radix");
      var p;
      if ((p = str.indexOf("-")) > 0) throw Error("interior hyphen");
      else if (p === 0) {
        return fromString(str.substring(1), unsigned, radix).neg();
      }

      // Do several (8) digits each time through the loop, so as to
      // minimize the calls to the very expensive emulated div.
      var radixToPower = fromNumber(pow_dbl(radix, 8));
      var result = ZERO;
      for (var i = 0; i < str.length; i += 8) {
        var size = Math.min(8, str.length - i),
          value = parseInt(str.substring(i, i + size), radix);
        if (size < 8) {
          var power = fromNumber(pow_dbl(radix, size));
          result = result.mul(power).add(fromNumber(value));
        } else {
          result = result.mul(radixToPower);
          result = result.add(fromNumber(value));
        }
      }
      result.unsigned = unsigned;
      return result;
    }

    /**
     * Returns a Long representation of the given string, written using the specified radix.
     * @function
     * @param {string} str The textual representation of the Long
     * @param {(boolean|number)=} unsigned Whether unsigned or not, defaults to signed
     * @param {number=} radix The radix in which the text is written (2-36), defaults to 10
     * @returns {!Long} The corresponding Long value
     */
    Long.fromString = fromString;

    /**
     * @function
     * @param {!Long|number|string|!{low: number, high: number, unsigned: boolean}} val
     * @param {boolean=} unsigned
     * @returns {!Long}
     * @inner
     */
    function fromValue(val, unsigned) {
      if (typeof val === "number") return fromNumber(val, unsigned);
      if (typeof val === "string") return fromString(val, unsigned);
      // Throws for non-objects, converts non-instanceof Long:
      return fromBits(
        val.low,
        val.high,
        typeof unsigned === "boolean" ? unsigned : val.unsigned,
      );
    }

    /**
     * Converts the specified value to a Long using the appropriate from* function for its type.
     * @function
     * @param {!Long|number|bigint|string|!{low: number, high: number, unsigned: boolean}} val Value
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @returns {!Long}
     */
    Long.fromValue = fromValue;

    // NOTE: the compiler should inline these constant values below and then remove these variables, so there should be
    // no runtime penalty for these.

    /**
     * @type {number}
     * @const
     * @inner
     */
    var TWO_PWR_16_DBL = 1 << 16;

    /**
     * @type {number}
     * @const
     * @inner
     */
    var TWO_PWR_24_DBL = 1 << 24;

    /**
     * @type {number}
     * @const
     * @inner
     */
    var TWO_PWR_32_DBL = TWO_PWR_16_DBL * TWO_PWR_16_DBL;

    /**
     * @type {number}
     * @const
     * @inner
     */
    var TWO_PWR_64_DBL = TWO_PWR_32_DBL * TWO_PWR_32_DBL;

    /**
     * @type {number}
     * @const
     * @inner
     */
    var TWO_PWR_63_DBL = TWO_PWR_64_DBL / 2;

    /**
     * @type {!Long}
     * @const
     * @inner
     */
    var TWO_PWR_24 = fromInt(TWO_PWR_24_DBL);

    /**
     * @type {!Long}
     * @inner
     */
    var ZERO = fromInt(0);

    /**
     * Signed zero.
     * @type {!Long}
     */
    Long.ZERO = ZERO;

    /**
     * @type {!Long}
     * @inner
     */
    var UZERO = fromInt(0, true);

    /**
     * Unsigned zero.
     * @type {!Long}
     */
    Long.UZERO = UZERO;

    /**
     * @type {!Long}
     * @inner
     */
    var ONE = fromInt(1);

    /**
     * Signed one.
     * @type {!Long}
     */
    Long.ONE = ONE;

    /**
     * @type {!Long}
     * @inner
     */
    var UONE = fromInt(1, true);

    /**
     * Unsigned one.
     * @type {!Long}
     */
    Long.UONE = UONE;

    /**
     * @type {!Long}
     * @inner
     */
    var NEG_ONE = fromInt(-1);

    /**
     * Signed negative one.
     * @type {!Long}
     */
    Long.NEG_ONE = NEG_ONE;

    /**
     * @type {!Long}
     * @inner
     */
    var MAX_VALUE = fromBits(0xffffffff | 0, 0x7fffffff | 0, false);

    /**
     * Maximum signed value.
     * @type {!Long}
     */
    Long.MAX_VALUE = MAX_VALUE;

    /**
     * @type {!Long}
     * @inner
     */
    var MAX_UNSIGNED_VALUE = fromBits(0xffffffff | 0, 0xffffffff | 0, true);

    /**
     * Maximum unsigned value.
     * @type {!Long}
     */
    Long.MAX_UNSIGNED_VALUE = MAX_UNSIGNED_VALUE;

    /**
     * @type {!Long}
     * @inner
     */
    var MIN_VALUE = fromBits(0, 0x80000000 | 0, false);

    /**
     * Minimum signed value.
     * @type {!Long}
     */
    Long.MIN_VALUE = MIN_VALUE;

    /**
     * @alias Long.prototype
     * @inner
     */
    var LongPrototype = Long.prototype;

    /**
     * Converts the Long to a 32 bit integer, assuming it is a 32 bit integer.
     * @this {!Long}
     * @returns {number}
     */
    LongPrototype.toInt = function toInt() {
      return this.unsigned ? this.low >>> 0 : this.low;
    };

    /**
     * Converts the Long to a the nearest floating-point representation of this value (double, 53 bit mantissa).
     * @this {!Long}
     * @returns {number}
     */
    LongPrototype.toNumber = function toNumber() {
      if (this.unsigned)
        return (this.high >>> 0) * TWO_PWR_32_DBL + (this.low >>> 0);
      return this.high * TWO_PWR_32_DBL + (this.low >>> 0);
    };

    /**
     * Converts the Long to a string written in the specified radix.
     * @this {!Long}
     * @param {number=} radix Radix (2-36), defaults to 10
     * @returns {string}
     * @override
     * @throws {RangeError} If `radix` is out of range
     */
    LongPrototype.toString = function toString(radix) {
      radix = radix || 10;
      if (radix < 2 || 36 < radix) throw RangeError("radix");
      if (this.isZero()) return "0";
      if (this.isNegative()) {
        // Unsigned Longs are never negative
        if (this.eq(MIN_VALUE)) {
          // We need to change the Long value before it can be negated, so we remove
          // the bottom-most digit in this base and then recurse to do the rest.
          var radixLong = fromNumber(radix),
            div = this.div(radixLong),
            rem1 = div.mul(radixLong).sub(this);
          return div.toString(radix) + rem1.toInt().toString(radix);
        } else return "-" + this.neg().toString(radix);
      }

      // Do several (6) digits each time through the loop, so as to
      // minimize the calls to the very expensive emulated div.
      var radixToPower = fromNumber(pow_dbl(radix, 6), this.unsigned),
        rem = this;
      var result = "";
      while (true) {
        var remDiv = rem.div(radixToPower),
          intval = rem.sub(remDiv.mul(radixToPower)).toInt() >>> 0,
          digits = intval.toString(radix);
        rem = remDiv;
        if (rem.isZero()) return digits + result;
        else {
          while (digits.length < 6) digits = "0" + digits;
          result = "" + digits + result;
        }
      }
    };

    /**
     * Gets the high 32 bits as a signed integer.
     * @this {!Long}
     * @returns {number} Signed high bits
     */
    LongPrototype.getHighBits = function getHighBits() {
      return this.high;
    };

    /**
     * Gets the high 32 bits as an unsigned integer.
     * @this {!Long}
     * @returns {number} Unsigned high bits
     */
    LongPrototype.getHighBitsUnsigned = function getHighBitsUnsigned() {
      return this.high >>> 0;
    };

    /**
     * Gets the low 32 bits as a signed integer.
     * @this {!Long}
     * @returns {number} Signed low bits
     */
    LongPrototype.getLowBits = function getLowBits() {
      return this.low;
    };

    /**
     * Gets the low 32 bits as an unsigned integer.
     * @this {!Long}
     * @returns {number} Unsigned low bits
     */
    LongPrototype.getLowBitsUnsigned = function getLowBitsUnsigned() {
      return this.low >>> 0;
    };

    /**
     * Gets the number of bits needed to represent the absolute value of this Long.
     * @this {!Long}
     * @returns {number}
     */
    LongPrototype.getNumBitsAbs = function getNumBitsAbs() {
      if (this.isNegative())
        // Unsigned Longs are never negative
        return this.eq(MIN_VALUE) ? 64 : this.neg().getNumBitsAbs();
      var val = this.high != 0 ? this.high : this.low;
      for (var bit = 31; bit > 0; bit--) if ((val & (1 << bit)) != 0) break;
      return this.high != 0 ? bit + 33 : bit + 1;
    };

    /**
     * Tests if this Long can be safely represented as a JavaScript number.
     * @this {!Long}
     * @returns {boolean}
     */
    LongPrototype.isSafeInteger = function isSafeInteger() {
      // 2^53-1 is the maximum safe value
      var top11Bits = this.high >> 21;
      // [0, 2^53-1]
      if (!top11Bits) return true;
      // > 2^53-1
      if (this.unsigned) return false;
      // [-2^53, -1] except -2^53
      return top11Bits === -1 && !(this.low === 0 && this.high === -0x200000);
    };

    /**
     * Tests if this Long's value equals zero.
     * @this {!Long}
     * @returns {boolean}
     */
    LongPrototype.isZero = function isZero() {
      return this.high === 0 && this.low === 0;
    };

    /**
     * Tests if this Long's value equals zero. This is an alias of {@link Long#isZero}.
     * @returns {boolean}
     */
    LongPrototype.eqz = LongPrototype.isZero;

    /**
     * Tests if this Long's value is negative.
     * @this {!Long}
     * @returns {boolean}
     */
    LongPrototype.isNegative = function isNegative() {
      return !this.unsigned && this.high < 0;
    };

    /**
     * Tests if this Long's value is positive or zero.
     * @this {!Long}
     * @returns {boolean}
     */
    LongPrototype.isPositive = function isPositive() {
      return this.unsigned || this.high >= 0;
    };

    /**
     * Tests if this Long's value is odd.
     * @this {!Long}
     * @returns {boolean}
     */
    LongPrototype.isOdd = function isOdd() {
      return (this.low & 1) === 1;
    };

    /**
     * Tests if this Long's value is even.
     * @this {!Long}
     * @returns {boolean}
     */
    LongPrototype.isEven = function isEven() {
      return (this.low & 1) === 0;
    };

    /**
     * Tests if this Long's value equals the specified's.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.equals = function equals(other) {
      if (!isLong(other)) other = fromValue(other);
      if (
        this.unsigned !== other.unsigned &&
        this.high >>> 31 === 1 &&
        other.high >>> 31 === 1
      )
        return false;
      return this.high === other.high && this.low === other.low;
    };

    /**
     * Tests if this Long's value equals the specified's. This is an alias of {@link Long#equals}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.eq = LongPrototype.equals;

    /**
     * Tests if this Long's value differs from the specified's.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.notEquals = function notEquals(other) {
      return !this.eq(/* validates */ other);
    };

    /**
     * Tests if this Long's value differs from the specified's. This is an alias of {@link Long#notEquals}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.neq = LongPrototype.notEquals;

    /**
     * Tests if this Long's value differs from the specified's. This is an alias of {@link Long#notEquals}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.ne = LongPrototype.notEquals;

    /**
     * Tests if this Long's value is less than the specified's.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.lessThan = function lessThan(other) {
      return this.comp(/* validates */ other) < 0;
    };

    /**
     * Tests if this Long's value is less than the specified's. This is an alias of {@link Long#lessThan}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.lt = LongPrototype.lessThan;

    /**
     * Tests if this Long's value is less than or equal the specified's.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.lessThanOrEqual = function lessThanOrEqual(other) {
      return this.comp(/* validates */ other) <= 0;
    };

    /**
     * Tests if this Long's value is less than or equal the specified's. This is an alias of {@link Long#lessThanOrEqual}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.lte = LongPrototype.lessThanOrEqual;

    /**
     * Tests if this Long's value is less than or equal the specified's. This is an alias of {@link Long#lessThanOrEqual}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.le = LongPrototype.lessThanOrEqual;

    /**
     * Tests if this Long's value is greater than the specified's.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.greaterThan = function greaterThan(other) {
      return this.comp(/* validates */ other) > 0;
    };

    /**
     * Tests if this Long's value is greater than the specified's. This is an alias of {@link Long#greaterThan}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.gt = LongPrototype.greaterThan;

    /**
     * Tests if this Long's value is greater than or equal the specified's.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.greaterThanOrEqual = function greaterThanOrEqual(other) {
      return this.comp(/* validates */ other) >= 0;
    };

    /**
     * Tests if this Long's value is greater than or equal the specified's. This is an alias of {@link Long#greaterThanOrEqual}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.gte = LongPrototype.greaterThanOrEqual;

    /**
     * Tests if this Long's value is greater than or equal the specified's. This is an alias of {@link Long#greaterThanOrEqual}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {boolean}
     */
    LongPrototype.ge = LongPrototype.greaterThanOrEqual;

    /**
     * Compares this Long's value with the specified's.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other value
     * @returns {number} 0 if they are the same, 1 if the this is greater and -1
     *  if the given one is greater
     */
    LongPrototype.compare = function compare(other) {
      if (!isLong(other)) other = fromValue(other);
      if (this.eq(other)) return 0;
      var thisNeg = this.isNegative(),
        otherNeg = other.isNegative();
      if (thisNeg && !otherNeg) return -1;
      if (!thisNeg && otherNeg) return 1;
      // At this point the sign bits are the same
      if (!this.unsigned) return this.sub(other).isNegative() ? -1 : 1;
      // Both are positive if at least one is unsigned
      return other.high >>> 0 > this.high >>> 0 ||
        (other.high === this.high && other.low >>> 0 > this.low >>> 0)
        ? -1
        : 1;
    };

    /**
     * Compares this Long's value with the specified's. This is an alias of {@link Long#compare}.
     * @function
     * @param {!Long|number|bigint|string} other Other value
     * @returns {number} 0 if they are the same, 1 if the this is greater and -1
     *  if the given one is greater
     */
    LongPrototype.comp = LongPrototype.compare;

    /**
     * Negates this Long's value.
     * @this {!Long}
     * @returns {!Long} Negated Long
     */
    LongPrototype.negate = function negate() {
      if (!this.unsigned && this.eq(MIN_VALUE)) return MIN_VALUE;
      return this.not().add(ONE);
    };

    /**
     * Negates this Long's value. This is an alias of {@link Long#negate}.
     * @function
     * @returns {!Long} Negated Long
     */
    LongPrototype.neg = LongPrototype.negate;

    /**
     * Returns the sum of this and the specified Long.
     * @this {!Long}
     * @param {!Long|number|bigint|string} addend Addend
     * @returns {!Long} Sum
     */
    LongPrototype.add = function add(addend) {
      if (!isLong(addend)) addend = fromValue(addend);

      // Divide each number into 4 chunks of 16 bits, and then sum the chunks.

      var a48 = this.high >>> 16;
      var a32 = this.high & 0xffff;
      var a16 = this.low >>> 16;
      var a00 = this.low & 0xffff;
      var b48 = addend.high >>> 16;
      var b32 = addend.high & 0xffff;
      var b16 = addend.low >>> 16;
      var b00 = addend.low & 0xffff;
      var c48 = 0,
        c32 = 0,
        c16 = 0,
        c00 = 0;
      c00 += a00 + b00;
      c16 += c00 >>> 16;
      c00 &= 0xffff;
      c16 += a16 + b16;
      c32 += c16 >>> 16;
      c16 &= 0xffff;
      c32 += a32 + b32;
      c48 += c32 >>> 16;
      c32 &= 0xffff;
      c48 += a48 + b48;
      c48 &= 0xffff;
      return fromBits((c16 << 16) | c00, (c48 << 16) | c32, this.unsigned);
    };

    /**
     * Returns the difference of this and the specified Long.
     * @this {!Long}
     * @param {!Long|number|bigint|string} subtrahend Subtrahend
     * @returns {!Long} Difference
     */
    LongPrototype.subtract = function subtract(subtrahend) {
      if (!isLong(subtrahend)) subtrahend = fromValue(subtrahend);
      return this.add(subtrahend.neg());
    };

    /**
     * Returns the difference of this and the specified Long. This is an alias of {@link Long#subtract}.
     * @function
     * @param {!Long|number|bigint|string} subtrahend Subtrahend
     * @returns {!Long} Difference
     */
    LongPrototype.sub = LongPrototype.subtract;

    /**
     * Returns the product of this and the specified Long.
     * @this {!Long}
     * @param {!Long|number|bigint|string} multiplier Multiplier
     * @returns {!Long} Product
     */
    LongPrototype.multiply = function multiply(multiplier) {
      if (this.isZero()) return this;
      if (!isLong(multiplier)) multiplier = fromValue(multiplier);

      // use wasm support if present
      if (wasm) {
        var low = wasm["mul"](
          this.low,
          this.high,
          multiplier.low,
          multiplier.high,
        );
        return fromBits(low, wasm["get_high"](), this.unsigned);
      }
      if (multiplier.isZero()) return this.unsigned ? UZERO : ZERO;
      if (this.eq(MIN_VALUE)) return multiplier.isOdd() ? MIN_VALUE : ZERO;
      if (multiplier.eq(MIN_VALUE)) return this.isOdd() ? MIN_VALUE : ZERO;
      if (this.isNegative()) {
        if (multiplier.isNegative()) return this.neg().mul(multiplier.neg());
        else return this.neg().mul(multiplier).neg();
      } else if (multiplier.isNegative())
        return this.mul(multiplier.neg()).neg();

      // If both longs are small, use float multiplication
      if (this.lt(TWO_PWR_24) && multiplier.lt(TWO_PWR_24))
        return fromNumber(
          this.toNumber() * multiplier.toNumber(),
          this.unsigned,
        );

      // Divide each long into 4 chunks of 16 bits, and then add up 4x4 products.
      // We can skip products that would overflow.

      var a48 = this.high >>> 16;
      var a32 = this.high & 0xffff;
      var a16 = this.low >>> 16;
      var a00 = this.low & 0xffff;
      var b48 = multiplier.high >>> 16;
      var b32 = multiplier.high & 0xffff;
      var b16 = multiplier.low >>> 16;
      var b00 = multiplier.low & 0xffff;
      var c48 = 0,
        c32 = 0,
        c16 = 0,
        c00 = 0;
      c00 += a00 * b00;
      c16 += c00 >>> 16;
      c00 &= 0xffff;
      c16 += a16 * b00;
      c32 += c16 >>> 16;
      c16 &= 0xffff;
      c16 += a00 * b16;
      c32 += c16 >>> 16;
      c16 &= 0xffff;
      c32 += a32 * b00;
      c48 += c32 >>> 16;
      c32 &= 0xffff;
      c32 += a16 * b16;
      c48 += c32 >>> 16;
      c32 &= 0xffff;
      c32 += a00 * b32;
      c48 += c32 >>> 16;
      c32 &= 0xffff;
      c48 += a48 * b00 + a32 * b16 + a16 * b32 + a00 * b48;
      c48 &= 0xffff;
      return fromBits((c16 << 16) | c00, (c48 << 16) | c32, this.unsigned);
    };

    /**
     * Returns the product of this and the specified Long. This is an alias of {@link Long#multiply}.
     * @function
     * @param {!Long|number|bigint|string} multiplier Multiplier
     * @returns {!Long} Product
     */
    LongPrototype.mul = LongPrototype.multiply;

    /**
     * Returns this Long divided by the specified. The result is signed if this Long is signed or
     *  unsigned if this Long is unsigned.
     * @this {!Long}
     * @param {!Long|number|bigint|string} divisor Divisor
     * @returns {!Long} Quotient
     */
    LongPrototype.divide = function divide(divisor) {
      if (!isLong(divisor)) divisor = fromValue(divisor);
      if (divisor.isZero()) throw Error("division by zero");

      // use wasm support if present
      if (wasm) {
        // guard against signed division overflow: the largest
        // negative number / -1 would be 1 larger than the largest
        // positive number, due to two's complement.
        if (
          !this.unsigned &&
          this.high === -0x80000000 &&
          divisor.low === -1 &&
          divisor.high === -1
        ) {
          // be consistent with non-wasm code path
          return this;
        }
        var low = (this.unsigned ? wasm["div_u"] : wasm["div_s"])(
          this.low,
          this.high,
          divisor.low,
          divisor.high,
        );
        return fromBits(low, wasm["get_high"](), this.unsigned);
      }
      if (this.isZero()) return this.unsigned ? UZERO : ZERO;
      var approx, rem, res;
      if (!this.unsigned) {
        // This section is only relevant for signed longs and is derived from the
        // closure library as a whole.
        if (this.eq(MIN_VALUE)) {
          if (divisor.eq(ONE) || divisor.eq(NEG_ONE))
            return MIN_VALUE; // recall that -MIN_VALUE == MIN_VALUE
          else if (divisor.eq(MIN_VALUE)) return ONE;
          else {
            // At this point, we have |other| >= 2, so |this/other| < |MIN_VALUE|.
            var halfThis = this.shr(1);
            approx = halfThis.div(divisor).shl(1);
            if (approx.eq(ZERO)) {
              return divisor.isNegative() ? ONE : NEG_ONE;
            } else {
              rem = this.sub(divisor.mul(approx));
              res = approx.add(rem.div(divisor));
              return res;
            }
          }
        } else if (divisor.eq(MIN_VALUE)) return this.unsigned ? UZERO : ZERO;
        if (this.isNegative()) {
          if (divisor.isNegative()) return this.neg().div(divisor.neg());
          return this.neg().div(divisor).neg();
        } else if (divisor.isNegative()) return this.div(divisor.neg()).neg();
        res = ZERO;
      } else {
        // The algorithm below has not been made for unsigned longs. It's therefore
        // required to take special care of the MSB prior to running it.
        if (!divisor.unsigned) divisor = divisor.toUnsigned();
        if (divisor.gt(this)) return UZERO;
        if (divisor.gt(this.shru(1)))
          // 15 >>> 1 = 7 ; with divisor = 8 ; true
          return UONE;
        res = UZERO;
      }

      // Repeat the following until the remainder is less than other:  find a
      // floating-point that approximates remainder / other *from below*, add this
      // into the result, and subtract it from the remainder.  It is critical that
      // the approximate value is less than or equal to the real value so that the
      // remainder never becomes negative.
      rem = this;
      while (rem.gte(divisor)) {
        // Approximate the result of division. This may be a little greater or
        // smaller than the actual value.
        approx = Math.max(1, Math.floor(rem.toNumber() / divisor.toNumber()));

        // We will tweak the approximate result by changing it in the 48-th digit or
        // the smallest non-fractional digit, whichever is larger.
        var log2 = Math.ceil(Math.log(approx) / Math.LN2),
          delta = log2 <= 48 ? 1 : pow_dbl(2, log2 - 48),
          // Decrease the approximation until it is smaller than the remainder.  Note
          // that if it is too large, the product overflows and is negative.
          approxRes = fromNumber(approx),
          approxRem = approxRes.mul(divisor);
        while (approxRem.isNegative() || approxRem.gt(rem)) {
          approx -= delta;
          approxRes = fromNumber(approx, this.unsigned);
          approxRem = approxRes.mul(divisor);
        }

        // We know the answer can't be zero... and actually, zero would cause
        // infinite recursion since we would make no progress.
        if (approxRes.isZero()) approxRes = ONE;
        res = res.add(approxRes);
        rem = rem.sub(approxRem);
      }
      return res;
    };

    /**
     * Returns this Long divided by the specified. This is an alias of {@link Long#divide}.
     * @function
     * @param {!Long|number|bigint|string} divisor Divisor
     * @returns {!Long} Quotient
     */
    LongPrototype.div = LongPrototype.divide;

    /**
     * Returns this Long modulo the specified.
     * @this {!Long}
     * @param {!Long|number|bigint|string} divisor Divisor
     * @returns {!Long} Remainder
     */
    LongPrototype.modulo = function modulo(divisor) {
      if (!isLong(divisor)) divisor = fromValue(divisor);

      // use wasm support if present
      if (wasm) {
        var low = (this.unsigned ? wasm["rem_u"] : wasm["rem_s"])(
          this.low,
          this.high,
          divisor.low,
          divisor.high,
        );
        return fromBits(low, wasm["get_high"](), this.unsigned);
      }
      return this.sub(this.div(divisor).mul(divisor));
    };

    /**
     * Returns this Long modulo the specified. This is an alias of {@link Long#modulo}.
     * @function
     * @param {!Long|number|bigint|string} divisor Divisor
     * @returns {!Long} Remainder
     */
    LongPrototype.mod = LongPrototype.modulo;

    /**
     * Returns this Long modulo the specified. This is an alias of {@link Long#modulo}.
     * @function
     * @param {!Long|number|bigint|string} divisor Divisor
     * @returns {!Long} Remainder
     */
    LongPrototype.rem = LongPrototype.modulo;

    /**
     * Returns the bitwise NOT of this Long.
     * @this {!Long}
     * @returns {!Long}
     */
    LongPrototype.not = function not() {
      return fromBits(~this.low, ~this.high, this.unsigned);
    };

    /**
     * Returns count leading zeros of this Long.
     * @this {!Long}
     * @returns {!number}
     */
    LongPrototype.countLeadingZeros = function countLeadingZeros() {
      return this.high ? Math.clz32(this.high) : Math.clz32(this.low) + 32;
    };

    /**
     * Returns count leading zeros. This is an alias of {@link Long#countLeadingZeros}.
     * @function
     * @param {!Long}
     * @returns {!number}
     */
    LongPrototype.clz = LongPrototype.countLeadingZeros;

    /**
     * Returns count trailing zeros of this Long.
     * @this {!Long}
     * @returns {!number}
     */
    LongPrototype.countTrailingZeros = function countTrailingZeros() {
      return this.low ? ctz32(this.low) : ctz32(this.high) + 32;
    };

    /**
     * Returns count trailing zeros. This is an alias of {@link Long#countTrailingZeros}.
     * @function
     * @param {!Long}
     * @returns {!number}
     */
    LongPrototype.ctz = LongPrototype.countTrailingZeros;

    /**
     * Returns the bitwise AND of this Long and the specified.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other Long
     * @returns {!Long}
     */
    LongPrototype.and = function and(other) {
      if (!isLong(other)) other = fromValue(other);
      return fromBits(
        this.low & other.low,
        this.high & other.high,
        this.unsigned,
      );
    };

    /**
     * Returns the bitwise OR of this Long and the specified.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other Long
     * @returns {!Long}
     */
    LongPrototype.or = function or(other) {
      if (!isLong(other)) other = fromValue(other);
      return fromBits(
        this.low | other.low,
        this.high | other.high,
        this.unsigned,
      );
    };

    /**
     * Returns the bitwise XOR of this Long and the given one.
     * @this {!Long}
     * @param {!Long|number|bigint|string} other Other Long
     * @returns {!Long}
     */
    LongPrototype.xor = function xor(other) {
      if (!isLong(other)) other = fromValue(other);
      return fromBits(
        this.low ^ other.low,
        this.high ^ other.high,
        this.unsigned,
      );
    };

    /**
     * Returns this Long with bits shifted to the left by the given amount.
     * @this {!Long}
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Shifted Long
     */
    LongPrototype.shiftLeft = function shiftLeft(numBits) {
      if (isLong(numBits)) numBits = numBits.toInt();
      if ((numBits &= 63) === 0) return this;
      else if (numBits < 32)
        return fromBits(
          this.low << numBits,
          (this.high << numBits) | (this.low >>> (32 - numBits)),
          this.unsigned,
        );
      else return fromBits(0, this.low << (numBits - 32), this.unsigned);
    };

    /**
     * Returns this Long with bits shifted to the left by the given amount. This is an alias of {@link Long#shiftLeft}.
     * @function
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Shifted Long
     */
    LongPrototype.shl = LongPrototype.shiftLeft;

    /**
     * Returns this Long with bits arithmetically shifted to the right by the given amount.
     * @this {!Long}
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Shifted Long
     */
    LongPrototype.shiftRight = function shiftRight(numBits) {
      if (isLong(numBits)) numBits = numBits.toInt();
      if ((numBits &= 63) === 0) return this;
      else if (numBits < 32)
        return fromBits(
          (this.low >>> numBits) | (this.high << (32 - numBits)),
          this.high >> numBits,
          this.unsigned,
        );
      else
        return fromBits(
          this.high >> (numBits - 32),
          this.high >= 0 ? 0 : -1,
          this.unsigned,
        );
    };

    /**
     * Returns this Long with bits arithmetically shifted to the right by the given amount. This is an alias of {@link Long#shiftRight}.
     * @function
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Shifted Long
     */
    LongPrototype.shr = LongPrototype.shiftRight;

    /**
     * Returns this Long with bits logically shifted to the right by the given amount.
     * @this {!Long}
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Shifted Long
     */
    LongPrototype.shiftRightUnsigned = function shiftRightUnsigned(numBits) {
      if (isLong(numBits)) numBits = numBits.toInt();
      if ((numBits &= 63) === 0) return this;
      if (numBits < 32)
        return fromBits(
          (this.low >>> numBits) | (this.high << (32 - numBits)),
          this.high >>> numBits,
          this.unsigned,
        );
      if (numBits === 32) return fromBits(this.high, 0, this.unsigned);
      return fromBits(this.high >>> (numBits - 32), 0, this.unsigned);
    };

    /**
     * Returns this Long with bits logically shifted to the right by the given amount. This is an alias of {@link Long#shiftRightUnsigned}.
     * @function
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Shifted Long
     */
    LongPrototype.shru = LongPrototype.shiftRightUnsigned;

    /**
     * Returns this Long with bits logically shifted to the right by the given amount. This is an alias of {@link Long#shiftRightUnsigned}.
     * @function
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Shifted Long
     */
    LongPrototype.shr_u = LongPrototype.shiftRightUnsigned;

    /**
     * Returns this Long with bits rotated to the left by the given amount.
     * @this {!Long}
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Rotated Long
     */
    LongPrototype.rotateLeft = function rotateLeft(numBits) {
      var b;
      if (isLong(numBits)) numBits = numBits.toInt();
      if ((numBits &= 63) === 0) return this;
      if (numBits === 32) return fromBits(this.high, this.low, this.unsigned);
      if (numBits < 32) {
        b = 32 - numBits;
        return fromBits(
          (this.low << numBits) | (this.high >>> b),
          (this.high << numBits) | (this.low >>> b),
          this.unsigned,
        );
      }
      numBits -= 32;
      b = 32 - numBits;
      return fromBits(
        (this.high << numBits) | (this.low >>> b),
        (this.low << numBits) | (this.high >>> b),
        this.unsigned,
      );
    };
    /**
     * Returns this Long with bits rotated to the left by the given amount. This is an alias of {@link Long#rotateLeft}.
     * @function
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Rotated Long
     */
    LongPrototype.rotl = LongPrototype.rotateLeft;

    /**
     * Returns this Long with bits rotated to the right by the given amount.
     * @this {!Long}
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Rotated Long
     */
    LongPrototype.rotateRight = function rotateRight(numBits) {
      var b;
      if (isLong(numBits)) numBits = numBits.toInt();
      if ((numBits &= 63) === 0) return this;
      if (numBits === 32) return fromBits(this.high, this.low, this.unsigned);
      if (numBits < 32) {
        b = 32 - numBits;
        return fromBits(
          (this.high << b) | (this.low >>> numBits),
          (this.low << b) | (this.high >>> numBits),
          this.unsigned,
        );
      }
      numBits -= 32;
      b = 32 - numBits;
      return fromBits(
        (this.low << b) | (this.high >>> numBits),
        (this.high << b) | (this.low >>> numBits),
        this.unsigned,
      );
    };
    /**
     * Returns this Long with bits rotated to the right by the given amount. This is an alias of {@link Long#rotateRight}.
     * @function
     * @param {number|!Long} numBits Number of bits
     * @returns {!Long} Rotated Long
     */
    LongPrototype.rotr = LongPrototype.rotateRight;

    /**
     * Converts this Long to signed.
     * @this {!Long}
     * @returns {!Long} Signed long
     */
    LongPrototype.toSigned = function toSigned() {
      if (!this.unsigned) return this;
      return fromBits(this.low, this.high, false);
    };

    /**
     * Converts this Long to unsigned.
     * @this {!Long}
     * @returns {!Long} Unsigned long
     */
    LongPrototype.toUnsigned = function toUnsigned() {
      if (this.unsigned) return this;
      return fromBits(this.low, this.high, true);
    };

    /**
     * Converts this Long to its byte representation.
     * @param {boolean=} le Whether little or big endian, defaults to big endian
     * @this {!Long}
     * @returns {!Array.<number>} Byte representation
     */
    LongPrototype.toBytes = function toBytes(le) {
      return le ? this.toBytesLE() : this.toBytesBE();
    };

    /**
     * Converts this Long to its little endian byte representation.
     * @this {!Long}
     * @returns {!Array.<number>} Little endian byte representation
     */
    LongPrototype.toBytesLE = function toBytesLE() {
      var hi = this.high,
        lo = this.low;
      return [
        lo & 0xff,
        (lo >>> 8) & 0xff,
        (lo >>> 16) & 0xff,
        lo >>> 24,
        hi & 0xff,
        (hi >>> 8) & 0xff,
        (hi >>> 16) & 0xff,
        hi >>> 24,
      ];
    };

    /**
     * Converts this Long to its big endian byte representation.
     * @this {!Long}
     * @returns {!Array.<number>} Big endian byte representation
     */
    LongPrototype.toBytesBE = function toBytesBE() {
      var hi = this.high,
        lo = this.low;
      return [
        hi >>> 24,
        (hi >>> 16) & 0xff,
        (hi >>> 8) & 0xff,
        hi & 0xff,
        lo >>> 24,
        (lo >>> 16) & 0xff,
        (lo >>> 8) & 0xff,
        lo & 0xff,
      ];
    };

    /**
     * Creates a Long from its byte representation.
     * @param {!Array.<number>} bytes Byte representation
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @param {boolean=} le Whether little or big endian, defaults to big endian
     * @returns {Long} The corresponding Long value
     */
    Long.fromBytes = function fromBytes(bytes, unsigned, le) {
      return le
        ? Long.fromBytesLE(bytes, unsigned)
        : Long.fromBytesBE(bytes, unsigned);
    };

    /**
     * Creates a Long from its little endian byte representation.
     * @param {!Array.<number>} bytes Little endian byte representation
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @returns {Long} The corresponding Long value
     */
    Long.fromBytesLE = function fromBytesLE(bytes, unsigned) {
      return new Long(
        bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24),
        bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24),
        unsigned,
      );
    };

    /**
     * Creates a Long from its big endian byte representation.
     * @param {!Array.<number>} bytes Big endian byte representation
     * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
     * @returns {Long} The corresponding Long value
     */
    Long.fromBytesBE = function fromBytesBE(bytes, unsigned) {
      return new Long(
        (bytes[4] << 24) | (bytes[5] << 16) | (bytes[6] << 8) | bytes[7],
        (bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3],
        unsigned,
      );
    };

    // Support conversion to/from BigInt where available
    if (typeof BigInt === "function") {
      /**
       * Returns a Long representing the given big integer.
       * @function
       * @param {number} value The big integer value
       * @param {boolean=} unsigned Whether unsigned or not, defaults to signed
       * @returns {!Long} The corresponding Long value
       */
      Long.fromBigInt = function fromBigInt(value, unsigned) {
        var lowBits = Number(BigInt.asIntN(32, value));
        var highBits = Number(BigInt.asIntN(32, value >> BigInt(32)));
        return fromBits(lowBits, highBits, unsigned);
      };

      // Override
      Long.fromValue = function fromValueWithBigInt(value, unsigned) {
        if (typeof value === "bigint") return Long.fromBigInt(value, unsigned);
        return fromValue(value, unsigned);
      };

      /**
       * Converts the Long to its big integer representation.
       * @this {!Long}
       * @returns {bigint}
       */
      LongPrototype.toBigInt = function toBigInt() {
        var lowBigInt = BigInt(this.low >>> 0);
        var highBigInt = BigInt(this.unsigned ? this.high >>> 0 : this.high);
        return (highBigInt << BigInt(32)) | lowBigInt;
      };
    }
    var _default = (_exports.default = Long);
  },
);


/***/ },

/***/ "./node_modules/@temporalio/workflow/package.json"
/*!********************************************************!*\
  !*** ./node_modules/@temporalio/workflow/package.json ***!
  \********************************************************/
(module) {

"use strict";
module.exports = /*#__PURE__*/JSON.parse('{"name":"@temporalio/workflow","version":"1.24.0","description":"Temporal.io SDK Workflow sub-package","keywords":["temporal","workflow","isolate"],"bugs":{"url":"https://github.com/temporalio/sdk-typescript/issues"},"repository":{"type":"git","url":"git+https://github.com/temporalio/sdk-typescript.git","directory":"packages/workflow"},"homepage":"https://github.com/temporalio/sdk-typescript/tree/main/packages/workflow","license":"MIT","author":"Temporal Technologies Inc. <sdk@temporal.io>","main":"lib/index.js","types":"lib/index.d.ts","ava":{"timeout":"60s","concurrency":1,"workerThreads":false},"dependencies":{"@temporalio/common":"1.24.0","@temporalio/proto":"1.24.0","nexus-rpc":"^0.0.3"},"devDependencies":{"ava":"^5.3.1","long":"^5.3.2","source-map":"^0.7.4"},"publishConfig":{"access":"public"},"engines":{"node":">= 20.3.0"},"files":["src","lib","!src/__tests__","!lib/__tests__"],"scripts":{"build":"tsc --build","test":"tsx ../../scripts/ava-ci.ts ./lib/__tests__/test-*.js"}}');

/***/ }

/******/ 	});
/************************************************************************/
/******/ 	// The module cache
/******/ 	const __webpack_module_cache__ = globalThis.__webpack_module_cache__;
/******/ 	
/******/ 	// The require function
/******/ 	function __webpack_require__(moduleId) {
/******/ 		/******/ 		// Check if module is in cache
/******/ 		const cachedModule = __webpack_module_cache__[moduleId];
/******/ 		if (cachedModule !== undefined) {
/******/ 			return cachedModule.exports;
/******/ 		}
/******/ 		// Create a new module (and put it into the cache)
/******/ 		const module = __webpack_module_cache__[moduleId] = {
/******/ 			// no module.id needed
/******/ 			// no module.loaded needed
/******/ 			exports: {}
/******/ 		};
/******/ 	
/******/ 		// Execute the module function
/******/ 		if (!(moduleId in __webpack_modules__)) {
/******/ 			delete __webpack_module_cache__[moduleId];
/******/ 			const e = new Error("Cannot find module '" + moduleId + "'");
/******/ 			e.code = 'MODULE_NOT_FOUND';
/******/ 			throw e;
/******/ 		}
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __webpack_require__);
/******/ 	
/******/ 		// Return the exports of the module
/******/ 		return module.exports;
/******/ 	}
/******/ 	
/************************************************************************/
/******/ 	/* webpack/runtime/compat get default export */
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__webpack_require__.n = (module) => {
/******/ 		const getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__webpack_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ 	
/******/ 	/* webpack/runtime/define property getters */
/******/ 	// define getter/value functions for harmony exports
/******/ 	__webpack_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__webpack_require__.o(definition, key) && !__webpack_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ 	
/******/ 	/* webpack/runtime/hasOwnProperty shorthand */
/******/ 	__webpack_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop));
/******/ 	
/******/ 	/* webpack/runtime/make namespace object */
/******/ 	// define __esModule on exports
/******/ 	__webpack_require__.r = (exports) => {
/******/ 		Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ 	
/************************************************************************/
let __webpack_exports__ = {};
// This entry needs to be wrapped in an IIFE because it needs to be isolated against other modules in the chunk.
(() => {
let exports = __webpack_exports__;
/*!******************************************************!*\
  !*** ./workflows/index-autogenerated-entrypoint.cjs ***!
  \******************************************************/

const api = __webpack_require__(/*! @temporalio/workflow/lib/worker-interface.js */ "./node_modules/@temporalio/workflow/lib/worker-interface.js");
exports.api = api;

const { overrideGlobals } = __webpack_require__(/*! @temporalio/workflow/lib/global-overrides.js */ "./node_modules/@temporalio/workflow/lib/global-overrides.js");
overrideGlobals();

exports.preloadModules = function preloadModules() {

}

exports.importWorkflows = function importWorkflows() {
  return __webpack_require__(/* webpackMode: "eager" */ /*! ./workflows/index.ts */ "./workflows/index.ts");
}

exports.importInterceptors = function importInterceptors() {
  return [
    
  ];
}

})();

__TEMPORAL__ = __webpack_exports__;
/******/ })()
;
//# sourceMappingURL=data:application/json;base64,eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbXSwibmFtZXMiOltdLCJtYXBwaW5ncyI6IiJ9
