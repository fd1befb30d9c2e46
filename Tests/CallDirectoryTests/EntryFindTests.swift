import CProcessor
import CallDirectory
import CallDirectoryFormat
import Testing

@testable import CallDirectoryReader

/// A warm lookup's one C call (`calldir_entry_find`, CProcessor's entry_find.h), each compilation
/// this processor can run, over a reader's own plans: before any block has passed its checks it
/// answers nothing, only the block to check; once the file has passed, it agrees with the numbers
/// the file was written from.
@Suite struct EntryFindTests {
  typealias Find = @convention(c) (UnsafePointer<calldir_entry_plan>?, UInt64) -> calldir_entry_found

  /// Each compilation by name: a process uses one (CPUID chooses), so the others are called here.
  static var finds: [(String, Find)] {
    #if arch(x86_64)
      unsafe EliasFanoSearchTests.compilations(
        calldir_entry_find_portable, calldir_entry_find_popcnt, calldir_entry_find_bmi2)
    #else
      unsafe EliasFanoSearchTests.compilations(calldir_entry_find_portable)
    #endif
  }

  /// A file of both kinds written from seeded numbers: clusters of neighbours, wide gaps and the
  /// largest positive number, in blocks of `entriesPerBlock`.
  struct Case: Sendable, CustomTestStringConvertible {
    var entriesPerBlock: Int
    var seed: UInt64
    var testDescription: String { "\(entriesPerBlock) a block, seed \(seed)" }

    func numbers() -> [Int64] {
      var random = SeededGenerator(seed: seed)
      var values: Set<Int64> = [Int64.max - 1, 1]  // the largest number a file may hold
      var next: Int64 = 12_000_000_000
      while values.count < 3_000 {
        next += random.next() % 4 == 0 ? Int64(random.next() % 5_000_000) : Int64(1 + random.next() % 40)
        values.insert(next)
      }
      return values.sorted()
    }
  }

  static let cases = [1, 4, 64, 512].flatMap { perBlock in [7, 8].map { Case(entriesPerBlock: perBlock, seed: $0) } }

  /// The probes worth asking: every number, its neighbours, and the ends of the positive range.
  static func probes(_ numbers: [Int64]) -> [Int64] {
    numbers.flatMap { [$0, $0 &- 1, $0 &+ 1] }.filter { $0 > 0 } + [1, 2, Int64.max - 2, Int64.max]
  }

  @Test(arguments: cases)
  func answersNothingBeforeABlockHasPassedThenAgreesWithTheList(_ testCase: Case) throws {
    let numbers = testCase.numbers()
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = testCase.entriesPerBlock
    for number in numbers {
      try builder.block(number)
      try builder.identify(number, label: "label \(number % 11)")
    }
    let reader = try CallDirectoryReader(bytes: try builder.encoded())
    let stored = Set(numbers)
    let layout = reader.layout
    #expect(testCase.entriesPerBlock > 4 || layout.blockingIndex.topStride > 0, "small blocks make a top")
    for unsafe(name, find) in unsafe Self.finds {
      for kind in [EntryKind.blocking, .identification] {
        for number in Self.probes(numbers) {
          let found = unsafe find(reader.lookupPlans.plan(kind), UInt64(number))
          #expect(found.block != Int64(CALLDIR_FOUND), "\(name) answered \(number) from an unchecked block")
          // The block the records alone give, searched without the top above them.
          let index = layout.index(kind)
          if let block = EntryIndex.block(containing: UInt64(number), in: 0..<index.blockCount, records: index.records) {
            #expect(found.block == Int64(block), "\(name): \(number)")
            #expect(found.value == UInt64(number) - index.firstNumber(ofBlock: block), "\(name): \(number)")
          } else {
            #expect(found.block == Int64(CALLDIR_ABSENT), "\(name): \(number)")
          }
        }
      }
    }
    reader.passedVerification()
    for unsafe(name, find) in unsafe Self.finds {
      for number in Self.probes(numbers) {
        let blocking = unsafe find(reader.lookupPlans.plan(.blocking), UInt64(number))
        #expect(blocking.block == Int64(stored.contains(number) ? CALLDIR_FOUND : CALLDIR_ABSENT), "\(name): \(number)")
        #expect(blocking.value == 0)
        let identified = unsafe find(reader.lookupPlans.plan(.identification), UInt64(number))
        guard stored.contains(number) else {
          #expect(identified.block == Int64(CALLDIR_ABSENT), "\(name): \(number)")
          continue
        }
        #expect(identified.block == Int64(CALLDIR_FOUND), "\(name): \(number)")
        #expect(try reader.label(id: Int(identified.value)) == "label \(number % 11)", "\(name): \(number)")
      }
    }
  }

  /// Through a top, its summary and their checks (the damage suite's summarised files, with the
  /// checked top and without): the same answers as the index searched whole, before and after
  /// the file has passed.
  @Test(arguments: [true, false]) func searchesThroughTheSummaryAndTheTop(checkedTop: Bool) throws {
    let shape = try checkedTop ? LookupDamageTests.summarised() : LookupDamageTests.summarisedWithoutCheckedTop()
    #expect((try CallDirectoryReader(bytes: shape.bytes).shape.blockingIndex.checkedTop != nil) == checkedTop)
    let reader = try CallDirectoryReader(bytes: shape.bytes)
    var numbers: [Int64] = []
    try reader.forEachBlocking { numbers.append($0) }
    let records = reader.layout.blockingIndex
    for unsafe(name, find) in unsafe Self.finds {
      for number in Self.probes(numbers) {
        let found = unsafe find(reader.lookupPlans.plan(.blocking), UInt64(number))
        // The block the records alone give, searched without the levels above them.
        let block = EntryIndex.block(containing: UInt64(number), in: 0..<records.blockCount, records: records.records)
        #expect(found.block == (block.map { Int64($0) } ?? Int64(CALLDIR_ABSENT)), "\(name): \(number)")
      }
    }
    reader.passedVerification()
    let stored = Set(numbers)
    for unsafe(name, find) in unsafe Self.finds {
      for number in Self.probes(numbers) {
        let found = unsafe find(reader.lookupPlans.plan(.blocking), UInt64(number))
        #expect(found.block == Int64(stored.contains(number) ? CALLDIR_FOUND : CALLDIR_ABSENT), "\(name): \(number)")
      }
    }
  }

  /// A file the verifier passed sets every block's bit, which the C search reads alone.
  @Test func aVerifiedReaderHasEveryBlockPassed() throws {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = 1
    for number in 0..<130 { try builder.block(12_025_550_000 + Int64(number)) }
    let reader = try CallDirectoryReader(bytes: try builder.encoded())
    let passedBefore = (0..<130).filter { reader.checks.blockingBlocks.contains($0) }
    #expect(passedBefore.isEmpty)
    #expect(!reader.checks.havePassed(ReadChecks.Part.lookup(.blocking)))
    reader.passedVerification()
    let passedAfter = (0..<131).filter { reader.checks.blockingBlocks.contains($0) }
    #expect(passedAfter == Array(0..<130))
    // The parts' bits too: a lookup tests those alone.
    for kind in EntryKind.allCases { #expect(reader.checks.havePassed(ReadChecks.Part.lookup(kind))) }
  }

  /// Each plan names a compilation (the one this processor runs best, chosen at open), an empty
  /// file's plans too, and `calldir_entry_find` answers as the compilations do.
  @Test func eachPlanNamesACompilationThatAnswersAsTheOthers() throws {
    let numbers: [Int64] = [12_025_550_100, 12_025_550_142, 12_025_559_999]
    for (bytes, stored) in [(try Contents(blocking: numbers).encoded(), numbers), (try Contents().encoded(), [])] {
      let reader = try CallDirectoryReader(bytes: bytes)
      reader.passedVerification()
      for kind in EntryKind.allCases {
        let plan = unsafe reader.lookupPlans.plan(kind)
        #expect(unsafe plan.pointee.find != nil)
        for number in numbers + [1, 12_025_550_101, Int64.max - 1] {
          let found = unsafe calldir_entry_find(plan, UInt64(number))
          let expected = kind == .blocking && stored.contains(number) ? CALLDIR_FOUND : CALLDIR_ABSENT
          #expect(found.block == Int64(expected), "\(kind) \(number)")
          for unsafe(name, find) in unsafe Self.finds {
            #expect(unsafe find(plan, UInt64(number)).block == found.block, "\(name) \(kind) \(number)")
          }
        }
      }
    }
  }
}
