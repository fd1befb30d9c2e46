import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Inputs that claim or hold more than any valid input: devices, FIFOs, endless lines, gzip
/// bombs and oversized key files, each refused with the file named, after reading a bounded
/// amount (the refusal itself shows the bound: `/dev/zero` never ends).
@Suite struct CLIInputLimitTests {
  /// A scratch directory with a key pair, a block list and a FIFO nobody writes to.
  struct Files {
    let scratch: ScratchDirectory
    var key: String { scratch.path("k.key") }
    var pub: String { scratch.path("k.pub") }
    var list: String { scratch.path("list.calldir") }
    var fifo: String { scratch.path("fifo") }

    init() throws {
      scratch = try ScratchDirectory()
      #expect(calldir("keygen", "-o", scratch.path("k")).status == 0)
      let block = try scratch.write("block.txt", "+12025550100\n")
      #expect(calldir("pack", "--block", block, "-o", scratch.path("list.calldir")).status == 0)
      #expect(unsafe mkfifo(scratch.path("fifo"), 0o600) == 0)
    }
  }

  @Test func keyFilesAreSmallRegularFiles() throws {
    let files = try Files()
    let big = try files.scratch.write("big.pub", String(repeating: "x", count: 5000))
    let out = files.scratch.path("out.calldir")
    let cases: [(String, String)] = [
      ("/dev/zero", "/dev/zero: not a regular file (a key file must be one, not a character device)"),
      (files.fifo, "\(files.fifo): not a regular file (a key file must be one, not a FIFO)"),
      (files.scratch.url.path, "not a regular file (a key file must be one, not a directory)"),
      (big, "\(big): 5000 bytes, more than a key file holds (at most 4096)"),
      ("-", "<stdin>: a key file must be a regular file, not standard input"),
    ]
    for (path, message) in cases {
      for arguments in [
        ["verify", files.list, "--trust", path], ["sign", files.list, "--key", path, "-o", out],
        ["pack", "--block", files.scratch.path("block.txt"), "--sign", path, "-o", out],
      ] {
        let result = calldirArguments(arguments, input: "calldir-ed25519-public-key 00")
        #expect(result.status == 1, "\(arguments)")
        #expect(result.error.contains(message), "\(arguments): \(result.error)")
      }
    }
    #expect(!files.scratch.exists("out.calldir"))
    // The real keys still serve.
    #expect(calldir("sign", files.list, "--key", files.key).status == 0)
    #expect(calldir("verify", files.list, "--trust", files.pub).status == 0)
  }

  @Test func signRefusesWhatIsNotAFile() throws {
    let files = try Files()
    for (path, kind) in [("/dev/zero", "a character device"), (files.fifo, "a FIFO")] {
      let result = calldir("sign", path, "--key", files.key, "-o", files.scratch.path("out.calldir"))
      #expect(result.status == 1)
      #expect(result.error.contains("\(path): not a regular file (the file to sign must be one, not \(kind))"), "\(result.error)")
    }
    #expect(!files.scratch.exists("out.calldir"))
  }

  /// `/dev/zero` has no line ends: every input kind stops at the first line's limit.
  @Test(arguments: [["--block"], ["--identify"], [], ["--format", "jsonl"], ["--format", "tsv"]])
  func anEndlessLineStopsPack(option: [String]) throws {
    let scratch = try ScratchDirectory()
    let result = calldirArguments(["pack"] + option + ["/dev/zero", "-o", scratch.path("out.calldir")])
    #expect(result.status == 1)
    #expect(result.error.contains("/dev/zero:1: line longer than 1048576 bytes"), "\(result.error)")
    #expect(!scratch.exists("out.calldir"))
  }

  /// The line that is too long is named, wherever it falls among the pieces and chunks read;
  /// a line at the limit is read (and refused as a number, not as a line).
  @Test(arguments: [false, true]) func aLongLineIsNamed(gzip: Bool) throws {
    let scratch = try ScratchDirectory()
    let long = String(repeating: "1", count: (1 << 20) + 1)
    var text = "+12025550100\n# comment\n+12025550101\n" + long + "\n+12025550102\n"
    // Exactly at the limit: a number after spaces, which the parser trims.
    let limit = String(repeating: " ", count: (1 << 20) - 12) + "+12025550103\n"
    let name = gzip ? "list.gz" : "list.txt"
    func write(_ text: String) throws {
      let bytes = Array(text.utf8)
      try Data(gzip ? try #require(Gzip.compress(bytes)) : bytes).write(to: URL(fileURLWithPath: scratch.path(name)))
    }
    try write(text)
    let refused = calldir("pack", "--block", scratch.path(name), "-o", scratch.path("out.calldir"))
    #expect(refused.status == 1)
    #expect(refused.error.contains("\(name):4: line longer than 1048576 bytes"), "\(refused.error)")
    let piped = calldir("pack", "--block", "-", "-o", scratch.path("out.calldir"), input: text)
    #expect(piped.error.contains("<stdin>:4: line longer than 1048576 bytes"), "\(piped.error)")
    text = "+12025550100\n" + limit
    try write(text)
    let read = calldir("pack", "--block", scratch.path(name), "-o", scratch.path("out.calldir"))
    #expect(read.status == 0, "\(read.error)")
    #expect(calldir("lookup", scratch.path("out.calldir"), "+12025550103").output.contains("\tblock"))
  }

  /// A quoted field never closed holds line ends, so no line is long: its record is bounded
  /// like a line, named at the line where the quote opened, so that it costs no more memory.
  @Test func aQuotedFieldNeverClosedStopsAtTheLineLimit() throws {
    let scratch = try ScratchDirectory()
    let rest = String(repeating: "+12025550199,Acme\n", count: 70_000)  // 1.2 MB after the quote
    let text = "number,label\n+12025550100,Acme\n+12025550101,\"Acme Inc\n" + rest
    for (option, name) in [(["--identify"], "ids.csv"), ([], "listing.csv")] {
      let path = try scratch.write(name, option.isEmpty ? "kind,number,label\n" + text.dropFirst(13) : text)
      let result = calldir(["pack"] + option + [path, "-o", scratch.path("out.calldir")])
      #expect(result.status == 1)
      #expect(
        result.error.contains("\(name):3: the quoted field opened on this line runs on past 1048576 bytes"),
        "\(result.error)")
      #expect(!scratch.exists("out.calldir"))
    }
    // Under the bound, the CSV reader names the quote that is never closed, at its own line.
    let short = try scratch.write("short.csv", "number,label\n+12025550100,Acme\n+12025550101,\"Acme\n+12025550102,B\n")
    let result = calldir("pack", "--identify", short, "-o", scratch.path("out.calldir"))
    #expect(result.error.contains("short.csv:3: the quoted field opened on this line is never closed"), "\(result.error)")
  }

  /// A gzip bomb stops at `--gzip-limit`, counted as the output is made; under the limit it
  /// packs.
  @Test func gzipStopsAtItsLimit() throws {
    let scratch = try ScratchDirectory()
    let lines = String(repeating: "\n", count: 3 << 20) + "+12025550100\n"
    let bomb = scratch.path("bomb.txt")  // gzip without the .gz ending: told by its magic
    try Data(try #require(Gzip.compress(Array(lines.utf8)))).write(to: URL(fileURLWithPath: bomb))
    let out = scratch.path("out.calldir")
    for option in [["--block"], ["--format", "jsonl"], []] {
      let refused = calldirArguments(["pack", "--gzip-limit", "2"] + option + [bomb, "-o", out])
      #expect(refused.status == 1)
      #expect(
        refused.error.contains("bomb.txt: inflates to more than 2097152 bytes (the cap on inflated input)"), "\(refused.error)")
    }
    #expect(!scratch.exists("out.calldir"))
    let packed = calldir("pack", "--gzip-limit", "4", "--block", bomb, "-o", out)
    #expect(packed.status == 0, "\(packed.error)")
    #expect(calldir("lookup", out, "+12025550100").output.contains("\tblock"))
    for bad in ["0", "x", "1048577"] {
      #expect(calldir("pack", "--gzip-limit", bad, "--block", bomb, "-o", out).status == 2)
    }
  }

  /// Each input is opened once and closed by the time pack ends, whatever its form: a gzip
  /// file without `.gz`, an empty block list, and a file whose line is refused. Counted as the
  /// descriptors that name the file, so that other tests' files do not count.
  @Test func packClosesEveryInput() throws {
    let scratch = try ScratchDirectory()
    let gzip = scratch.path("list.txt")
    try Data(try #require(Gzip.compress(Array("+12025550100\n".utf8)))).write(to: URL(fileURLWithPath: gzip))
    let empty = try scratch.write("empty.txt", "")
    let long = try scratch.write("long.txt", String(repeating: "1", count: 2 << 20))
    func open() throws -> Int {
      try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { descriptor in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor) else {
          return false
        }
        return target.hasPrefix(scratch.url.path)
      }.count
    }
    #expect(calldir("pack", "--block", gzip, "--block", empty, "-o", scratch.path("a.calldir")).status == 0)
    #expect(calldir("pack", "--identify", empty, "--block", gzip, "-o", scratch.path("b.calldir")).status == 0)
    #expect(calldir("pack", "--block", long, "-o", scratch.path("c.calldir")).status == 1)
    #expect(try open() == 0)
  }
}
