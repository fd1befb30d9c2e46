/// `count` and its noun, singular for one: "1 range", "3 ranges", "0 ranges".
/// The plural is the singular and `s` when not given.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
  "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
