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
    checkUnindexedData(.labelData, blockCount: index.blockCount)
    var previous: String?
    var decodedLabels = 0
    var decodedAll = true
    for block in 0..<index.blockCount {
      guard !problems.isOverflowing else { return }
      // block < blockCount, whose records lie inside the index section: no overflow.
      let recordOffset = block &* Layout.labelIndexRecordSize
      let record = Int(indexSection.offset) &+ Layout.labelIndexHeaderSize &+ recordOffset
      if let reserved = index.records.uint32LE(at: recordOffset &+ 4), reserved != 0 {
        problems.record(
          FormatError(.nonzeroReserved(field: "label index record"), at: record &+ 4, section: SectionType.labelIndex.rawValue))
      }
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
      let labels: [String]
      do { labels = try LabelDecoder.decode(layout: layout, block: block) } catch {
        problems.record(error)
        previous = nil
        decodedAll = false
        continue
      }
      checkOffsetTableEnds(block, labelCount: labels.count)
      let place = layout.labelBlockOffset(block)
      for (position, label) in labels.enumerated() where !problems.isOverflowing {
        // Unsigned byte order is the order of the UTF-8 views, not String's Unicode order.
        if let previous, !previous.utf8.lexicographicallyPrecedes(label.utf8) {
          problems.record(
            FormatError(.labelsNotAscending(id: first &+ position), at: place, section: SectionType.labelData.rawValue))
        }
        previous = label
      }
      decodedLabels &+= labels.count  // bounded by the label count
    }
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
    do { try labelBlock.block.checkChecksum() } catch {
      problems.record(error.placed(in: SectionType.labelData.rawValue, base: layout.labelBlockOffset(block)))
    }
  }

  /// Checks what the label decoder does not need: that the offset table starts at 0 and ends at
  /// the end of the label bytes, so no byte of the block is outside every label.
  ///
  /// Precondition: `LabelDecoder.decode` accepted the block with `labelCount` labels.
  private mutating func checkOffsetTableEnds(_ block: Int, labelCount: Int) {
    let found: [FormatError]
    do {
      let labelBlock = try layout.labelBlock(block, labelCount: labelCount)
      found = try labelBlock.block.withPayload { (payload) throws(FormatError) -> [FormatError] in
        // The decoder proved that the labelCount + 1 offsets fit in the payload.
        let tableBytes = (labelCount &+ 1) &* 4
        let area = payload.count &- tableBytes
        let start = payload.uint32LE(at: 0) ?? 0
        let end = payload.uint32LE(at: labelCount &* 4) ?? 0
        var found: [FormatError] = []
        if start != 0 {
          found.append(
            FormatError(
              .malformedBlock(block: block, reason: "the first label offset is \(start), not 0"), at: Layout.blockHeaderSize))
        }
        if Int(end) != area {
          found.append(
            FormatError(
              .malformedBlock(block: block, reason: "the labels end at byte \(end) of \(area)"), at: Layout.blockHeaderSize))
        }
        return found
      }
    } catch {
      // The decoder read this same block a moment ago; a failure now would already be reported.
      return
    }
    let base = layout.labelBlockOffset(block)
    for error in found { problems.record(error.placed(in: SectionType.labelData.rawValue, base: base)) }
  }
}
