import CallDirectoryFormat
import CallDirectoryReader

extension VerificationPass {
  /// Checks every label index record and label block, and that the labels are strictly
  /// ascending in unsigned byte order across the whole table (so no label appears twice).
  ///
  /// A bad block is reported and the walk goes on with the next; the order check resumes after
  /// it, since the last label before the gap is unknown.
  /// - Complexity: O(label bytes); memory O(one label block).
  mutating func checkLabels() {
    let index = layout.labelIndex
    let indexSection = layout.section(.labelIndex)
    let section = layout.labelCoding.section
    checkUnindexedData(section, blockCount: index.blockCount)
    if layout.labelCoding == .prefixed { checkVersion(atLeast: 3, for: section.rawValue) }
    // The last label checked, as bytes: comparing bytes is the table's order, and no String is made.
    var previous: [UInt8]?
    var decodedLabels = 0
    var decodedAll = true
    for block in 0..<index.blockCount {
      guard !problems.isOverflowing else { return }
      // block < blockCount, whose records lie inside the index section: no overflow.
      let recordOffset = block &* FormatConstants.labelIndexRecordSize
      let record = Int(indexSection.offset) &+ FormatConstants.labelIndexHeaderSize &+ recordOffset
      let first = index.firstLabel(ofBlock: block)
      let next = block &+ 1 < index.blockCount ? index.firstLabel(ofBlock: block &+ 1) : index.labelCount
      guard block > 0 || first == 0, first < next, next <= index.labelCount else {
        problems.record(
          FormatError(
            .malformedIndex("label block \(block) covers labels \(first)..<\(next) of \(index.labelCount)"), at: record,
            section: SectionType.labelIndex.rawValue))
        checkLabelFrame(block)
        previous = nil
        decodedAll = false
        continue
      }
      let place = layout.labelBlockOffset(block)
      var unordered: [Int] = []
      var labelsInBlock = 0
      var last = previous
      do {
        // Each label is compared with a copy of the one before (a label's view lives only for
        // its call), kept in one buffer that the block's labels reuse.
        let lastPosition = next &- first &- 1
        var before = last ?? []  // empty only before the first label: every label has a byte
        try LabelDecoder.forEachLabel(layout: layout, block: block) { (position, label) throws(FormatError) in
          var ordered = true
          if !before.isEmpty { ordered = unsafe before.withUnsafeBytes { unsafe ByteView($0).precedesInByteOrder(label) } }
          if !ordered { unordered.append(position) }
          before.removeAll(keepingCapacity: true)
          unsafe label.withUnsafeBytes { unsafe before.append(contentsOf: $0) }
          if position == lastPosition { last = before }
          labelsInBlock = position &+ 1
        }
      } catch {
        problems.record(error)
        previous = nil
        decodedAll = false
        continue
      }
      for position in unordered where !problems.isOverflowing {
        problems.record(
          FormatError(.labelsNotAscending(id: first &+ position), at: place, section: section.rawValue))
      }
      previous = last
      decodedLabels &+= labelsInBlock  // bounded by the label count
    }
    if decodedAll { checksummedBlocks.insert(section) }
    if decodedAll && decodedLabels != index.labelCount {
      problems.record(
        FormatError(
          .malformedIndex("the index declares \(index.labelCount) labels, the blocks hold \(decodedLabels)"),
          at: Int(indexSection.offset), section: SectionType.labelIndex.rawValue))
    }
  }

  /// Checks the frame and checksum of a label block whose labels cannot be placed.
  private mutating func checkLabelFrame(_ block: Int) {
    let labelBlock: LabelBlock
    do { labelBlock = try layout.labelBlock(block, labelCount: 0) } catch {
      problems.record(error)
      return
    }
    do { try labelBlock.block.checkChecksum() } catch { problems.record(error) }
  }
}
