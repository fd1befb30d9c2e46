/// What one server accepts, each bounded so that no client can make it hold more.
///
/// The defaults suit a PBX's lookups: small requests, a few hundred connections.
package struct ServerLimits: Sendable, Equatable {
  /// Connections open at once; more wait in the system's listen queue until one closes.
  package var maximumConnections = 256
  /// The bytes of a request's body (a batch); a longer one is answered 413.
  package var maximumBodyBytes = 1 << 20
  /// Header lines of a request; more are answered 431.
  package var maximumHeaderCount = 64
  /// The memory a connection may use for its request line, headers and buffers, in bytes; a
  /// request whose head does not fit is refused by the server library (431 or 414).
  package var connectionMemoryBytes = 32 << 10
  /// Seconds a connection may stay idle, a slow client included, before it is closed.
  package var idleTimeoutSeconds = 10
  /// Threads answering requests; each polls its share of the connections.
  package var threads = 2
  /// Seconds `stop` waits, after refusing new connections, for open ones to finish.
  package var drainSeconds = 5
  /// The bytes of batch answers made and not yet handed to the system whole, beyond which a new
  /// batch is answered 503: a batch's answer is tens of times its body (an error line for each
  /// two-byte line), and clients that do not read theirs would otherwise keep that memory, up to
  /// every connection's worth.
  package var maximumPendingAnswerBytes = 64 << 20

  /// The defaults.
  package init() {}
}
