// The few Objective-C runtime calls Corral makes (libobjc through koffi), darwin only.
// objc_msgSend is declared once per signature used, non-variadic: on arm64 a variadic declaration
// would pass the arguments on the stack where the method reads registers.
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';

/** An Objective-C object or class pointer as koffi returns it; null for nil. */
export type ObjcId = unknown;

export interface ObjcRuntime {
  autoreleasePoolPush(): ObjcId;
  autoreleasePoolPop(pool: ObjcId): void;
  getClass(name: string): ObjcId;
  /** `[receiver selector]` returning an object: id (*)(id, SEL). */
  send(receiver: ObjcId, selector: string): ObjcId;
  /** `[receiver selector:"…"]` with a C string: id (*)(id, SEL, const char *). */
  sendCString(receiver: ObjcId, selector: string, value: string): ObjcId;
  /** `[receiver selector:options reason:object]`: id (*)(id, SEL, uint64_t, id). */
  sendOptionsAndObject(receiver: ObjcId, selector: string, options: bigint, object: ObjcId): ObjcId;
}

const LIBOBJC_PATH = '/usr/lib/libobjc.A.dylib';

export function loadObjcRuntime(path = LIBOBJC_PATH): ObjcRuntime {
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  const koffi = load('koffi') as typeof Koffi;
  const lib = koffi.load(path);
  const getClass = lib.func('void *objc_getClass(const char *name)');
  const selRegisterName = lib.func('void *sel_registerName(const char *name)');
  const poolPush = lib.func('void *objc_autoreleasePoolPush()');
  const poolPop = lib.func('void objc_autoreleasePoolPop(void *pool)');
  const msgSend = lib.func('objc_msgSend', 'void *', ['void *', 'void *']);
  const msgSendCString = lib.func('objc_msgSend', 'void *', ['void *', 'void *', 'const char *']);
  const msgSendOptionsObject = lib.func('objc_msgSend', 'void *', ['void *', 'void *', 'uint64_t', 'void *']);
  const selectors = new Map<string, unknown>();
  const sel = (name: string): unknown => {
    let found = selectors.get(name);
    if (found === undefined) {
      found = selRegisterName(name);
      selectors.set(name, found);
    }
    return found;
  };
  return {
    autoreleasePoolPush: () => poolPush(),
    autoreleasePoolPop: (pool) => void poolPop(pool),
    getClass: (name) => getClass(name),
    send: (receiver, selector) => msgSend(receiver, sel(selector)),
    sendCString: (receiver, selector, value) => msgSendCString(receiver, sel(selector), value),
    sendOptionsAndObject: (receiver, selector, options, object) =>
      msgSendOptionsObject(receiver, sel(selector), options, object),
  };
}
