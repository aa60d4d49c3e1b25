/*
 * Restate's SDK 1.17 calls `Promise.withResolvers`, which Node 20 lacks (it came in Node 22).
 * hookloop supports Node 20, so the adapter installs this small equivalent before the SDK runs;
 * on a Node that has it, nothing changes.
 */
type WithResolvers = <T>() => {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
};

const promiseConstructor = Promise as unknown as { withResolvers?: WithResolvers };
if (typeof promiseConstructor.withResolvers !== 'function') {
  promiseConstructor.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    return { promise, resolve, reject };
  };
}

export {};
