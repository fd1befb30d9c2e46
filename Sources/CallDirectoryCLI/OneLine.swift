/// `text` with every control character (a tab, a line end, a NUL) turned into a space, so that a
/// label or an input printed as a field of a text line never splits the line or its columns.
func oneLine(_ text: String) -> String {
  guard text.unicodeScalars.contains(where: isControl) else { return text }
  return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }
