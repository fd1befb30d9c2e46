/// The help text of `calldir` and each command, with examples.
enum HelpText {
  static func text(for topic: String?) -> String {
    switch topic {
    case "pack": return pack
    case "unpack": return unpack
    case "complement": return complement
    case "verify": return verify
    case "lookup": return lookup
    case "info": return info
    case "stats": return stats
    case "resolve": return resolve
    case "export": return export
    case "serve": return serve
    case "diff": return diff
    case "patch": return patch
    case "keygen": return keygen
    case "sign": return sign
    case "completions": return completions
    case "help": return overview
    default: return overview
    }
  }

  static let overview = """
    calldir: build, check and query call directory files (call-blocking and caller-ID lists).

    Usage: calldir COMMAND [OPTIONS]

    Commands:
      pack      build a directory from block lists, identify CSVs and listings
      unpack    write a directory's listing: CSV, TSV or JSON Lines
      complement  block every number of a span that no directory lists (Do-Not-Originate lists)
      verify    check files completely; exit 1 if any is damaged
      lookup    answer for numbers from one file: block, identify or allow
      info      show what a file holds and what each part costs
      stats     draw a histogram of entries per country calling code
      resolve   answer incoming calls across a stack of directories: block, identify or allow
      export    write a stack's answers as iOS Live Caller ID Lookup datasets (--live-caller-id)
      serve     answer incoming calls over HTTP, for PBXs (GET /v1/resolve?number=...)
      diff      write the changeset that turns one version of a directory into the next
      patch     apply a changeset to the version it was made from
      keygen    write a new Ed25519 key pair for signing directories and changesets
      sign      sign a directory or a changeset with a private key
      completions  print the completion script for bash, zsh or fish
      help      show help for a command; help --man prints this manual as a man page (roff)

    Options:
      -h, --help     show this help
      -V, --version  show the tool's and the format's versions

    Global options (with any command, anywhere before --):
      --color WHEN   colour verdicts: auto (at a terminal, unless NO_COLOR is set), always, never
      --verbose      write summaries to standard error even when it is not a terminal

    Results go to standard output; diagnostics, problem reports, progress and summaries to
    standard error. Summaries are shown at a terminal, unless --quiet, or with --verbose.
    Exit codes: 0 success, 1 invalid data or a failed check, 2 wrong usage.
    A file named - is standard input (or standard output for -o).

    Examples:
      calldir pack --block spam.txt --identify callerid.csv -o list.calldir
      calldir verify list.calldir
      calldir lookup list.calldir +12025550100 "+1 (202) 555-0123"
      calldir resolve --allow contacts.calldir spam.calldir business.calldir +12025550100
    """

  static let pack = """
    Usage: calldir pack [LISTING]... [--block FILE]... [--allow FILE]... [--identify FILE]...
                        [--country REGION] [--format csv|tsv|jsonl] [--json] -o OUT

    Build a directory from any mix of inputs, in any order; entries are sorted, exact duplicates
    merged, and a number given two different labels is refused. The output is written atomically:
    a failed pack never leaves a partial file and never touches an existing one.

    Inputs:
      LISTING                what unpack writes: kind,number,label (kind is block, identify or
                             allow), as CSV, TSV (.tsv) or JSON Lines (.jsonl); or a directory
                             (.calldir), merged as its listing
      -b, --block FILE       one number or range a line; blank lines and lines starting with # skipped
      -a, --allow FILE       as --block: exceptions, numbers or ranges the blocking ranges spare
      -i, --identify FILE    CSV number,label (RFC 4180 quoting), TSV (.tsv) or JSON Lines (.jsonl)

    A first line naming the columns (number, phone, phone number, telephone or msisdn; label or
    name; kind; any case, any order) is a header and maps them by name. Lines starting with # are
    comments; an unquoted label loses the spaces around it. A file ending in .gz (or starting with
    gzip's magic) is inflated as it is read, up to 4 GiB (--gzip-limit). A line of more than 1 MiB
    is an error.

    A range is FIRST..LAST (+33899000000..+33899999999) or a pattern whose last digits are
    wildcards, # or X (+33899######, +1 202 555 XXXX); it is stored as an interval. Entries may
    nest, and the most specific wins: a number's own entry, else the narrowest range holding it
    (an exception spares its numbers from the ranges around it). Ranges with different labels
    that overlap with neither inside the other are refused, naming both (Spec/INPUT.md 3.6).

    Options:
      -o, --output OUT       the directory to write (- for standard output); required. It may
                             be a directory among the inputs (updated in place), never a list
      -c, --country REGION   region (US, GB) or calling code (1, 44) whose rules read
                             numbers written without +
      --reject-invalid       refuse a number with no valid length in its country's plan, or
                             a pattern none of whose numbers has one (+1 202 555 0105 #); by
                             default such numbers are packed and reported
      -k, --keep-going       report every bad line on standard error, skip it and pack the
                             rest (exit 0); overlapping ranges with different labels still
                             end the pack
      --on-conflict POLICY   a number given different labels: error (end the pack; with -k,
                             report its lines and leave it out), first or last (keep the
                             label given first or last: inputs in order, lines in order)
      --rejects FILE         write the skipped lines to FILE as they were written, each
                             input's header line first, to be fixed and fed again (implies -k)
      --allow-empty          write a directory without entries when the inputs hold none (by
                             default an error: an empty list would unblock every number)
      --entries-per-block N  entries per block, 1...4096 (default 512)
      --no-prefix-labels     keep labels in offset-table blocks (LDAT), which readers of format
                             2.0 to 2.2 read; by default a table of several blocks is
                             prefix-coded (LPFX, format 2.3), about a third smaller
      -f, --format FORMAT    csv, tsv or jsonl for listings and identify files (default: by the
                             file name's ending, else csv); needed for standard input
      --json                 write what was read, skipped and merged as one JSON object
      -q, --quiet            no progress line and no summary on standard error
      --sign KEY             sign the directory with the private key file KEY (calldir keygen)
      --list-version N       write the provider's list version N (a whole number; give each
                             published list a higher one); consumers refuse older versions
      --memory MIB           the memory for entries (default 256): half holds them, half sorts
                             a run before it is spilled beside the output, then reads the
                             runs back (more runs than it holds are merged in passes first).
                             Peak memory stays within MIB + 40 MiB plus the distinct labels;
                             any number of entries packs in this bound, every input being
                             read in pieces (measured, 20 M numbers: 288 MB at 256, 100 MB at
                             64, 41 MB at 16, 25 MB at 4, 39 MB at 1)
      --gzip-limit MIB       the most a gzip input may inflate to (default 4096); more is an
                             error, reached in time proportional to the limit

    Numbers are accepted as people write them: +1 (202) 555-0100, +1-202-555-0100,
    tel:+1-202-555-0100, 12025550100 (CallKit's form: full international digits).

    Examples:
      calldir pack --block spam.txt -o spam.calldir
      calldir pack --country 44 --identify contacts.csv -o contacts.calldir
      calldir pack --block telemarketing.txt --allow callbacks.txt -o telemarketing.calldir
      calldir pack provider.calldir own-entries.csv -o merged.calldir
      calldir pack --identify callerid.tsv.gz --json -o ids.calldir
      calldir unpack --format jsonl old.calldir | calldir pack --format jsonl - -o copy.calldir
    """

  static let complement = """
    Usage: calldir complement DIRECTORY... --span FIRST..LAST -o OUT [--json]

    Write a directory that blocks every number of the span that none of the directories lists
    (blocking or identification, entries or ranges): with the directories, it tiles the span
    without overlap. Built for Do-Not-Originate lists: US voice providers block calls that claim
    to come from unallocated numbers (47 CFR 64.1200(o)); the complement of the allocations is
    that list. The directories are read in order, a block at a time: memory does not grow with
    their entries.

    Options:
      -s, --span FIRST..LAST  the numbers to cover, as a range or a pattern (+1 XXX XXX XXXX)
      -o, --output OUT        the directory to write (- for standard output); required
      --json                  write the ranges, single numbers and numbers written as one object
      -q, --quiet             no summary on standard error

    Example:
      calldir complement nanp-allocations.calldir --span +12002000000..+19999999999 -o dno.calldir
    """

  static let unpack = """
    Usage: calldir unpack FILE [-o OUT] [--expand] [--format csv|tsv|jsonl]

    Write the directory's listing as CSV with the header kind,number,label: every blocking entry
    ascending, then every identification entry ascending; numbers as + and digits, ranges as
    +FIRST..+LAST. pack reads the listing back into identical bytes. An OUT ending in .gz is
    gzip-compressed (level 6); standard output never is.

    Options:
      -o, --output OUT   where to write (default: standard output)
      --expand           write every number of each range on a line of its own
      -q, --quiet        no progress line on standard error
      -f, --format FORMAT  csv (default); tsv, tab-separated without quotes (a label
                           with a tab, a line break or spaces at an end is an error); or
                           jsonl, one object a line,
                           {"kind":"identify","number":"+12025550100","label":"Acme"}
                           (the default for an OUT ending in .tsv or .jsonl, .gz or not)

    Examples:
      calldir unpack list.calldir -o list.csv
      calldir unpack list.calldir -o list.csv.gz
      calldir unpack --format jsonl list.calldir | jq -r .label
    """

  static let verify = """
    Usage: calldir verify FILE... [--callkit] [--json] [--quiet] [--trust PUB]...
                          [--installed-version N]

    Check every byte of each file: checksums, structure, numbers strictly ascending and in range,
    label ids and labels valid. Writes each file's verdict (FILE: ok or FILE: INVALID) to
    standard output, and every problem found, with its byte offset where it has one, to
    standard error. Exit 0 when every file is valid, 1 when any is not.

    Options:
      --callkit   also flag what a CallKit load would refuse (more than 2,000,000 entries)
      --json      one JSON object per file
      -q, --quiet no progress line on standard error
      --trust PUB a trusted public key file: the file must be signed by one of the keys given
                  (repeat for several, as during a key rotation); the output names the key
      --installed-version N
                  refuse a list version lower than N (a rollback)

    Examples:
      calldir verify --callkit list.calldir
      calldir verify --trust provider.pub --installed-version 41 list.calldir
    """

  static let lookup = """
    Usage: calldir lookup FILE [NUMBER... | -] [--country REGION] [--json]

    Answer for each number, in order, in resolve's words: block, identify (with its label), or
    allow for a number the file does not list. With no NUMBER, or -, the numbers are read from
    standard input, one a line, and each answered as it arrives.

    Options:
      -c, --country REGION   region (US, GB) or calling code (1, 44) for numbers without +
      --json             one object a line:
                         {"number":"+12025550100","action":"block","blocked":true,"label":"Acme"}

    Examples:
      calldir lookup list.calldir +12025550100 --json
      cut -d, -f1 calls.csv | calldir lookup list.calldir -
    """

  static let info = """
    Usage: calldir info FILE [--json]

    Show the format version, entry and label counts, number ranges, blocks, section sizes and
    bytes per entry; then the ten labels with the most entries and the entries per country
    calling code, from one pass over the entries (a range counts as many entries as it covers,
    under the code of its first number). The code is read from the number's first digits
    (ITU-T E.164: 1 and 7, the two-digit codes such as 44, else three digits).

    Options:
      --json   one JSON object; topLabels and countries list the label and country figures

    Example:
      calldir info list.calldir --json
    """

  static let stats = """
    Usage: calldir stats FILE [--width N] [--json]

    Draw a histogram of entries per country calling code, most entries first: the code, a bar
    of #, the entries and their share of all entries. Codes are counted as info counts them.

    Options:
      --width N   the longest bar, 10...500 columns (default 50)
      --json      one JSON object: entries, and countries with code, entries and percent

    Example:
      calldir stats list.calldir
    """

  static let resolve = """
    Usage: calldir resolve [--allow FILE]... [--country REGION] [--emergency LIST] [--json] [--stdin]
                           [--block-withheld] [--trust PUB]... [--installed-version N]
                           DIR... [NUMBER...]

    Answer incoming numbers across a stack of directories, consulted in the order given
    (Spec/RESOLUTION.md): emergency numbers are never blocked; a number an allow list lists is
    allowed whatever blocks it; otherwise the first directory that lists the number decides,
    and within it blocking wins over identification (the label is still shown).

    A positional argument that names an existing file, or ends in .calldir, is a directory;
    the others are numbers. Without numbers (or with - or --stdin) numbers are read from
    standard input, one a line, and answered as they arrive, one line each (a blank line is a
    withheld caller), so a program can write a number and wait for its answer. Input already
    queued is answered a read (at most 64 KiB) at a time, its answers written together before
    more input is waited for; a directory file replaced on disk (by rename, as pack writes, or
    rewritten in place) is reloaded before the next read's lines. A line of more than 4096 bytes
    gets one error answer, and the rest of it is dropped.

    Every directory is verified whole before it answers (as verify does), and so is each
    replacement: a damaged, unsigned or rolled-back replacement is reported on standard error
    and the previous version keeps answering.

    Options:
      -a, --allow FILE     an allow list, at this position in the stack
      -c, --country REGION region (US, BB) whose rules read numbers without + (a calling
                           code, 1 or 44, stands for its main region); its emergency numbers
                           (15, 17, 18 in FR) are never blocked
      --emergency LIST     the numbers never blocked, comma-separated; 'default' stands for
                           000,110,112,119,911,999 (the default) and 'none' for no numbers;
                           each repeat adds its numbers
      --json               one object a line, with the reason (see below)
      --block-withheld     block withheld callers (anonymous, restricted, unavailable, private,
                           unknown, an empty caller) instead of allowing them
      --stdin              read the numbers from standard input (as giving none does)
      --trust PUB          a trusted public key file: every directory, and every replacement,
                           must be signed by one of the keys given; a replacement's list
                           version must then be at least the served one's (no rollback)
      --installed-version N
                           refuse a directory whose list version is below N

    Output, one line per number, fields separated by tabs (empty when there is none):
      NUMBER  ACTION (block, identify or allow)  LABEL  DIRECTORY
    An invalid number gives  INPUT  error  MESSAGE  (and exit code 1 at the end).
    --json: {"input":"...","number":"+12025550100","action":"block","label":"Spam Risk",
    "directory":"spam.calldir","reason":"blocked"}; reason is emergency, allowListed, blocked,
    identified, notListed or withheld (number null); an invalid number gives
    {"input":"...","error":"..."}.

    Callers may be written as PBXs pass them: +1 (202) 555-0100, tel:+1-202-555-0100;ext=7,
    sip:+12025550100@example.com;user=phone, "Acme" <sips:+12025550100@example.com>.

    Examples:
      calldir resolve spam.calldir business.calldir "+1 (202) 555-0100" tel:+1-202-555-0123
      calldir resolve --allow contacts.calldir spam.calldir --country 44 "020 7946 0958"
      tail -f calls.log | calldir resolve --json --allow contacts.calldir spam.calldir
    """

  static let export = """
    Usage: calldir export --live-caller-id [--allow FILE]... DIR... -o OUTDIR
                          [--cache-expiry MINUTES] [--category person|business] [--max-numbers N]

    Write the stack's answers as the two datasets of iOS's Live Caller ID Lookup
    (Spec/LIVE-CALLER-ID.md), serialized KeywordDatabase protobufs that Apple's
    PIRProcessDatabase reads: OUTDIR/block.binpb holds a row for each number the stack blocks
    (keyword +DIGITS, value the byte 1), OUTDIR/identity.binpb a row for each number it
    labels (value a serialized CallIdentity: the label, the cache expiry, the category). Every
    number a directory lists is answered as resolve answers it, so allow lists and stack order
    hold; ranges are expanded into their numbers. OUTDIR is created when missing; each file is
    written atomically.

    Options:
      --live-caller-id      the form to write (the only one so far); required
      -a, --allow FILE      an allow list, at this position in the stack
      -o, --output OUTDIR   the directory to write block.binpb and identity.binpb into
      --cache-expiry MINUTES
                            how long a phone reuses an identity before asking again
                            (default 1440, a day)
      --category WORD       every identity's category: unspecified (the default), person or
                            business
      --max-numbers N       the most numbers the directories may list once ranges are
                            expanded (default 10000000); past it, an error names the range

    Examples:
      calldir export --live-caller-id spam.calldir business.calldir -o lcid --category business
      PIRProcessDatabase config.json    (inputDatabase: lcid/block.binpb, then lcid/identity.binpb)
    """

  static let serve = """
    Usage: calldir serve [--allow FILE]... [--listen ADDR:PORT] [--country REGION] [--emergency LIST]
                         [--block-withheld] [--trust PUB]... [--installed-version N]
                         [--max-connections N] [--max-request-bytes N] [--threads N] [--timeout S]
                         DIR...

    Answer incoming numbers over HTTP, as resolve does, across the stack of directories given
    (every positional is a directory). It runs until SIGTERM or SIGINT, then stops taking
    connections, lets open requests finish (at most 5 s) and exits 0. A directory file replaced
    on disk (by rename, or rewritten in place: each version is served from a copy in memory) is
    verified and served within a second; a damaged, unsigned or rolled-back replacement is
    refused, reported on standard error and counted, and the previous version keeps answering.

    Endpoints:
      GET  /v1/resolve?number=CALLER  one JSON answer, the fields of resolve --json (a + stands
                                      for itself; a space is %20); 400 with "error" for a caller
                                      that is not a number, 500 for a damaged directory
      POST /v1/resolve                JSON Lines: one {"number":"CALLER"} a line in, one answer
                                      a line out, in order (blank lines skipped)
      GET  /healthz, /readyz          200 while up; /readyz turns 503 once stopping
      GET  /metrics                   Prometheus text: answers by action and reason, unanswered
                                      callers, requests, reloads and reload failures, latency

    Options:
      -l, --listen ADDR:PORT  where to listen: 127.0.0.1:8053 by default (loopback); PORT alone
                           is on loopback, 0 asks for a free port, [::1]:PORT for IPv6
      -a, --allow FILE     an allow list, at this position in the stack, as for resolve
      -c, --country REGION region or calling code for callers without +, as for resolve
      --emergency LIST     the numbers never blocked, as for resolve
      --block-withheld     block withheld callers, as for resolve
      --trust PUB          a trusted public key file, as for resolve
      --installed-version N
                           the lowest list version any directory may carry, as for resolve
      --max-connections N  connections open at once (256); more wait in the system's listen queue
      --max-request-bytes N
                           the longest request body, a batch (1048576); longer ones get 413
      --threads N          threads answering lookups (2); batches have a thread of their own
      --timeout S          seconds a connection may stay idle, a slow client's too (10)
    A request may have at most 64 header lines (431 otherwise) and a head of at most 32 KiB.

    The address it listens on is written to standard error once it is ready:
      calldir: serving 2 directories on http://127.0.0.1:8053

    Examples:
      calldir serve --allow contacts.calldir spam.calldir business.calldir
      curl 'http://127.0.0.1:8053/v1/resolve?number=%2B12025550100'
      printf '{"number":"+12025550100"}\n{"number":"anonymous"}\n' |
        curl --data-binary @- http://127.0.0.1:8053/v1/resolve
    """

  static let diff = """
    Usage: calldir diff OLD NEW -o CHANGES [--json] [--quiet] [--sign KEY]

    Write the changeset from OLD to NEW (Spec/CHANGESET.md): for each kind, the runs (numbers
    and ranges, as the directories store them) to remove and to add; a changed label or range
    is a removal plus an addition. The changeset names OLD and NEW by their SHA-256, so it
    applies only to OLD and gives exactly NEW. It is written atomically; then a summary on
    standard error tells the counts and sizes (at a terminal, or with --verbose).

    Options:
      -o, --output CHANGES   the changeset to write (- for standard output); required
      --json                 the summary as one JSON object on standard output: removals,
                             additions, size, oldSize, newSize, base and result (SHA-256)
      -q, --quiet            no progress line and no summary on standard error
      --sign KEY             sign the changeset with the private key file KEY; NEW must be
                             signed and its signature must verify (exit 1 otherwise)

    NEW's list version and signature travel in the changeset, so patch rebuilds a signed NEW
    whose signature still verifies. CHANGES may not be OLD or NEW (the same file by any name:
    exit 2).

    Examples:
      calldir diff v1.calldir v2.calldir -o v1-v2.cdchanges
      calldir diff --json v1.calldir v2.calldir -o v1-v2.cdchanges
    """

  static let patch = """
    Usage: calldir patch OLD CHANGES -o NEW [--quiet] [--trust PUB]... [--installed-version N]

    Apply a changeset to the directory it was made from and write the result atomically. The
    result is byte-identical to the NEW the changeset was made from; its SHA-256 is checked
    before it is put in place. A changeset made from another file is refused (exit 1, nothing
    written), naming both hashes. NEW is streamed: memory does not grow with its entries
    (scratch spools go beside NEW, or in $TMPDIR when NEW is standard output). Standard output, a
    FIFO or a device gets NEW only once its hash is checked: it is spooled first.

    Options:
      -o, --output NEW   the directory to write (- for standard output); required; it may
                         be OLD (replaced once NEW is whole), not CHANGES (exit 2)
      -q, --quiet        no progress line and no summary on standard error
      --trust PUB        apply only a changeset signed by one of the given public keys; when
                         OLD is signed (or NEW's signature travels in the changeset), NEW
                         must be signed by one of them too, and its signature is checked
                         before NEW is put in place
      --installed-version N
                         refuse a changeset whose result has a list version below N (a
                         rollback)

    Example:
      calldir patch --trust provider.pub --installed-version 41 v1.calldir v1-v2.cdchanges -o v2.calldir
    """

  static let keygen = """
    Usage: calldir keygen -o NAME

    Write a new Ed25519 key pair: NAME.key, the private key, readable by its owner only, and
    NAME.pub, the public key to give to consumers. Neither file may exist yet: a key in use is
    never overwritten. Prints the key id (the public key's first 8 bytes in hex).

    Options:
      -o, --output NAME   the pair's name; required

    Example:
      calldir keygen -o provider-2027
    """

  static let sign = """
    Usage: calldir sign FILE --key KEY [-o OUT]

    Sign a directory or a changeset (told apart by their first bytes) with the private key KEY:
    the file's contents keep their bytes and a signature is added (Spec/FORMAT.md section 16,
    Spec/CHANGESET.md section 4.2); a signed file is re-signed. A file that does not read whole
    (every block checked) is refused. Written atomically, in place unless -o is given.

    Options:
      -k, --key KEY       the private key file, from calldir keygen; required
      -o, --output OUT    where to write the signed file (- for standard output)

    Examples:
      calldir sign list.calldir --key provider.key
      calldir sign v1-v2.cdchanges --key provider.key -o v1-v2.signed.cdchanges
    """
}

extension HelpText {
  static let completions = """
    Usage: calldir completions bash|zsh|fish

    Print the shell's completion script for calldir: commands, each command's options, the
    values of --color, --format and completions, and file names where a file is expected. The
    script is made from this help text, so every documented option completes. install.sh
    installs all three.

    Examples:
      source <(calldir completions bash)
      calldir completions zsh > "${fpath[1]}/_calldir"
      calldir completions fish > ~/.config/fish/completions/calldir.fish
    """

  /// The commands in the manual's order, each with its help text.
  static let manualCommands = [
    "pack", "unpack", "complement", "verify", "lookup", "info", "stats", "resolve", "serve", "export", "diff", "patch",
    "keygen", "sign", "completions",
  ]

  /// The manual page `calldir.1` as roff (`man -l`), made from the same text as `help`, so
  /// the two cannot drift apart: the overview, then each command's help as a subsection.
  static var manual: String {
    var lines = [
      ".TH CALLDIR 1 \"\" \"calldir \(CLI.version)\" \"User Commands\"",
      ".SH NAME",
      "calldir \\- build, check and query call directory files (call-blocking and caller-ID lists)",
      ".SH DESCRIPTION",
    ]
    lines += preformatted(overview)
    lines.append(".SH COMMANDS")
    for command in manualCommands {
      lines.append(".SS \(command)")
      lines += preformatted(text(for: command))
    }
    return lines.joined(separator: "\n")
  }

  /// `text` as a roff no-fill block, escaped: the help is laid out by hand, so it is shown as it is.
  private static func preformatted(_ text: String) -> [String] {
    [".nf"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { roffLine(String($0)) } + [".fi"]
  }

  /// One line of text made safe for roff: backslashes escaped, hyphens made minus signs (so
  /// options can be copied), and a leading `.` or `'` (a roff request) neutralised.
  private static func roffLine(_ line: String) -> String {
    var escaped = line.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
    if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
    return escaped
  }
}

extension String {
  /// `self` with every occurrence of `target` replaced (Foundation-free).
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self { if character == target { result += replacement } else { result.append(character) } }
    return result
  }
}
