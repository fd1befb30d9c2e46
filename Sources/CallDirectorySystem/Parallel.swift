#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Two pieces of work at once: one on the calling thread, one on a thread of its own.
package enum Parallel {
  /// Runs `other` on a new thread while `here` runs on this one, and returns both results once
  /// both are done. When no thread can be started, `other` runs here after `here`.
  ///
  /// Joining the thread orders everything `other` did before what follows the call, so its
  /// result needs no lock; and since the thread has ended before the call returns, `other` need
  /// not escape: it may use views that live only as long as the caller's scope.
  /// - Throws: what `here` throws, once the thread has ended.
  package static func both<Here, Other: Sendable>(
    _ here: () throws -> Here, _ other: @Sendable () -> Other
  ) rethrows -> (Here, Other) {
    try withoutActuallyEscaping(other) { (other) throws -> (Here, Other) in
      let box = ResultBox<Other>()
      let thread = ThreadRun { box.value = other() }
      let started = thread.start()
      // Joined however `here` ends: `other` may use what the caller frees after returning.
      let result: Here
      do {
        result = try here()
      } catch {
        if started { thread.join() }
        throw error
      }
      guard started else { return (result, other()) }
      thread.join()
      guard let value = box.value else { preconditionFailure("a joined thread left no result") }
      return (result, value)
    }
  }
}

/// Where the thread leaves its result; read only after the thread was joined.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
  var value: Value?
}

/// A closure run on a POSIX thread.
///
/// The one audited use of unsafe code here: the thread receives this object through an opaque
/// pointer retained for it and released by it.
private final class ThreadRun: Sendable {
  private let body: @Sendable () -> Void
  // A pointer on Darwin and musl (imported as an optional), an integer on glibc.
  #if canImport(Darwin) || canImport(Musl)
    private nonisolated(unsafe) var thread: pthread_t?
  #else
    private nonisolated(unsafe) var thread = pthread_t()
  #endif

  init(_ body: @escaping @Sendable () -> Void) {
    self.body = body
  }

  /// Starts the thread; `false` when the system refused one.
  func start() -> Bool {
    let context = unsafe Unmanaged.passRetained(self).toOpaque()
    let status = unsafe pthread_create(&thread, nil, threadEntry, context)
    if status != 0 { unsafe Unmanaged<ThreadRun>.fromOpaque(context).release() }
    return status == 0
  }

  /// Runs the body; called on the new thread.
  fileprivate func run() { body() }

  /// Waits for the thread to end.
  /// - Precondition: `start()` returned `true`.
  func join() {
    #if canImport(Darwin) || canImport(Musl)
      if let thread = unsafe thread { _ = unsafe pthread_join(thread, nil) }
    #else
      _ = unsafe pthread_join(thread, nil)
    #endif
  }
}

// Each takes the retain `start` made for the thread.
#if canImport(Darwin)
  private func threadEntry(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    unsafe Unmanaged<ThreadRun>.fromOpaque(context).takeRetainedValue().run()
    return nil
  }
#else
  private func threadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context = unsafe context else { return nil }
    unsafe Unmanaged<ThreadRun>.fromOpaque(context).takeRetainedValue().run()
    return nil
  }
#endif
