/// `count` and its noun, singular for one: "1 range", "3 ranges", "0 ranges".
func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
  "\(count) \(count == 1 ? singular : plural)"
}
