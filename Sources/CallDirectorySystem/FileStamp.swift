#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which version of a file a path named: its identity, its size, and the times of its last write
/// and of its last change of any kind, to the nanosecond where the file system keeps them.
///
/// A rename over the path changes the identity; a file rewritten in place (`cp` onto it, `curl
/// -o`, a shell's `>`) keeps its identity but not its size and times, which the kernel sets on
/// every write. The change time cannot be set back by a program (`touch -d` sets the
/// modification time, and the change time with it to now), so two stamps are equal only when
/// nothing wrote the file in between, short of writes within one tick of the file system's clock
/// that also leave the size as it was.
package struct FileStamp: Sendable, Equatable, Hashable {
  /// The device and inode numbers.
  package var identity: FileIdentity
  /// The size in bytes.
  package var size: Int64
  /// The last modification, in nanoseconds since the epoch.
  package var modified: Int64
  /// The last change of the data or the metadata, in nanoseconds since the epoch.
  package var changed: Int64

  /// The stamp `info` describes.
  init(_ info: stat) {
    identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modified = Self.nanoseconds(info.st_mtimespec)
      changed = Self.nanoseconds(info.st_ctimespec)
    #else
      modified = Self.nanoseconds(info.st_mtim)
      changed = Self.nanoseconds(info.st_ctim)
    #endif
  }

  /// The stamp of the file `path` names now, from `stat` (symbolic links followed).
  /// - Throws: `SystemError` from `stat` (`ENOENT` when nothing is at `path`).
  package init(path: String) throws(SystemError) {
    self.init(try FileDescriptor.pathStatus(path))
  }

  /// Whether the file was last changed at least a second before `time` (nanoseconds since the
  /// epoch, from ``wallClock()``). A file system keeps its times in ticks of its clock,
  /// milliseconds apart, so a file written again within the tick in which it was read, at the
  /// same size, keeps its stamp. Only a stamp settled when its bytes were read stands for those
  /// bytes; an unsettled one is read again at the next check. (Git's index meets the same race.)
  package func isSettled(at time: Int64) -> Bool {
    changed < time &- 1_000_000_000
  }

  /// Nanoseconds since the epoch, from `clock_gettime(CLOCK_REALTIME)`: the clock the kernel
  /// stamps files with.
  package static func wallClock() -> Int64 {
    var time = timespec()
    _ = unsafe clock_gettime(CLOCK_REALTIME, &time)
    return nanoseconds(time)
  }

  /// `time` in nanoseconds, wrapping rather than trapping for times no file system sets.
  private static func nanoseconds(_ time: timespec) -> Int64 {
    Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
  }
}
