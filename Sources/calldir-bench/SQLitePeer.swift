import CSQLite

/// The SQLite peer: the numbers in a table keyed by `number INTEGER PRIMARY KEY`, what the usual
/// advice for large block lists recommends, through the system library.
///
/// Two ways of holding the connection are measured, on the same file:
///
/// - **best** for this job: opened read-only without the connection mutex, `PRAGMA mmap_size`
///   large enough to map the whole file, one prepared statement reused, and one read transaction
///   (`BEGIN` then a first query) held across every lookup, so no lookup pays for taking the shared
///   lock and checking the file's change counter;
/// - **common**: `sqlite3_open_v2` with the defaults (read-write, serialized), no pragmas,
///   autocommit (each lookup is its own implicit read transaction), the statement prepared once
///   and reused (`.reused`) or prepared and finalized for every query (`.perQuery`), as code that
///   builds its SQL at the call site does.
@safe final class SQLitePeer: LookupPeer {
  /// How the connection is set up.
  enum Setup {
    /// Read-only, no mutex, mmap, one statement, one read transaction held.
    case best
    /// Defaults and autocommit; the statement prepared once.
    case commonReused
    /// Defaults and autocommit; the statement prepared for every query.
    case commonPerQuery
  }

  private let database: OpaquePointer
  private let statement: OpaquePointer?
  private let query: String
  private let setup: Setup

  /// Opens `path` as `setup` says; `identification` selects the label column.
  /// - Throws: `BenchError.library` with SQLite's message when it cannot open or prepare.
  init(path: String, identification: Bool, setup: Setup) throws(BenchError) {
    var handle: OpaquePointer?
    let flags =
      setup == .best
      ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    guard unsafe sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle = unsafe handle else {
      unsafe sqlite3_close(handle)
      throw .library("sqlite3_open_v2 \(path) failed")
    }
    unsafe database = handle
    self.setup = setup
    query = identification ? "SELECT label FROM numbers WHERE number = ?1" : "SELECT 1 FROM numbers WHERE number = ?1"
    if setup == .best {
      // Larger than any file here; SQLite caps it at its compile-time limit (2 GiB in Debian's build).
      try unsafe SQLiteFile.execute(handle, "PRAGMA mmap_size = 4294967296")
      try unsafe SQLiteFile.execute(handle, "BEGIN")
    }
    unsafe statement = setup == .commonPerQuery ? nil : try SQLiteFile.prepare(handle, query)
    // The first query of a deferred BEGIN takes the read lock that the rest then share.
    if setup == .best { _ = find(1) }
  }

  deinit {
    unsafe sqlite3_finalize(statement)
    if setup == .best { _ = unsafe sqlite3_exec(database, "COMMIT", nil, nil, nil) }
    _ = unsafe sqlite3_close(database)
  }

  func find(_ number: Int64) -> Int {
    if let statement = unsafe statement { return unsafe Self.step(statement, number) }
    guard let fresh = try? unsafe SQLiteFile.prepare(database, query) else { return -2 }
    defer { unsafe sqlite3_finalize(fresh) }
    return unsafe Self.step(fresh, number)
  }

  /// Binds `number`, steps once, and resets: the row's first column, or -1 when there is no row.
  @inline(__always)
  private static func step(_ statement: OpaquePointer, _ number: Int64) -> Int {
    _ = unsafe sqlite3_bind_int64(statement, 1, number)
    defer { _ = unsafe sqlite3_reset(statement) }
    switch unsafe sqlite3_step(statement) {
    case SQLITE_ROW: return Int(unsafe sqlite3_column_int64(statement, 0))
    case SQLITE_DONE: return -1
    default: return -2
    }
  }
}

/// Making the SQLite files the peers read.
enum SQLiteFile {
  /// The table layout: a rowid table whose rowid is the number, or a `WITHOUT ROWID` table
  /// (a B-tree keyed by the number record).
  enum Layout: String {
    case rowid = "rowid table"
    case withoutRowid = "WITHOUT ROWID"
  }

  /// Writes `numbers` (ascending) and, for identification, each one's label index and the label
  /// texts, to a new database at `path`, in one transaction with journalling and syncing off.
  /// - Throws: `BenchError.library` with SQLite's message.
  static func create(
    path: String, numbers: [Int64], labelIndices: [UInt32], labels: [String], layout: Layout
  ) throws(BenchError) {
    Files.remove(path)
    var handle: OpaquePointer?
    guard unsafe sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
      let database = unsafe handle
    else {
      unsafe sqlite3_close(handle)
      throw .library("sqlite3_open_v2 \(path) failed")
    }
    defer { _ = unsafe sqlite3_close(database) }
    let identification = !labelIndices.isEmpty
    let suffix = layout == .withoutRowid ? " WITHOUT ROWID" : ""
    try unsafe execute(database, "PRAGMA journal_mode = OFF")
    try unsafe execute(database, "PRAGMA synchronous = OFF")
    try unsafe execute(
      database,
      identification
        ? "CREATE TABLE numbers(number INTEGER PRIMARY KEY, label INTEGER NOT NULL)\(suffix)"
        : "CREATE TABLE numbers(number INTEGER PRIMARY KEY)\(suffix)")
    try unsafe execute(database, "BEGIN")
    let insert = try unsafe prepare(
      database, identification ? "INSERT INTO numbers VALUES (?1, ?2)" : "INSERT INTO numbers VALUES (?1)")
    defer { unsafe sqlite3_finalize(insert) }
    for (index, number) in numbers.enumerated() {
      _ = unsafe sqlite3_bind_int64(insert, 1, number)
      if identification { _ = unsafe sqlite3_bind_int64(insert, 2, Int64(labelIndices[index])) }
      guard unsafe sqlite3_step(insert) == SQLITE_DONE else { throw .library("insert: \(unsafe message(database))") }
      _ = unsafe sqlite3_reset(insert)
    }
    if identification {
      try unsafe execute(database, "CREATE TABLE labels(id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
      let label = try unsafe prepare(database, "INSERT INTO labels VALUES (?1, ?2)")
      defer { unsafe sqlite3_finalize(label) }
      for (id, text) in labels.enumerated() {
        _ = unsafe sqlite3_bind_int64(label, 1, Int64(id))
        // nil: SQLITE_STATIC, the text outlives the step that reads it.
        let done = unsafe text.withCString { text in
          guard unsafe sqlite3_bind_text(label, 2, text, -1, nil) == SQLITE_OK else { return false }
          return unsafe sqlite3_step(label) == SQLITE_DONE
        }
        guard done else { throw .library("insert label: \(unsafe message(database))") }
        _ = unsafe sqlite3_reset(label)
      }
    }
    try unsafe execute(database, "COMMIT")
  }

  /// Runs `sql` with no result rows.
  static func execute(_ database: OpaquePointer, _ sql: String) throws(BenchError) {
    guard unsafe sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
      throw .library("\(sql): \(unsafe message(database))")
    }
  }

  /// A prepared statement for `sql`; the caller finalizes it.
  static func prepare(_ database: OpaquePointer, _ sql: String) throws(BenchError) -> OpaquePointer {
    var statement: OpaquePointer?
    guard unsafe sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement = unsafe statement
    else { throw .library("prepare \(sql): \(unsafe message(database))") }
    return unsafe statement
  }

  /// SQLite's last error message on `database`.
  static func message(_ database: OpaquePointer) -> String {
    unsafe String(cString: sqlite3_errmsg(database))
  }

  /// The library's version string.
  static var version: String { unsafe String(cString: sqlite3_libversion()) }
}

/// One SQLite file made for a dataset: its layout, where it is, its size and how long it took.
struct SQLiteFileInfo {
  /// The table layout.
  let layout: SQLiteFile.Layout
  /// The database file.
  let path: String
  /// Its size in bytes.
  let bytes: Int
  /// Seconds to create and fill it.
  let seconds: Double
}
