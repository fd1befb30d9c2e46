/// A value given to an initializer outside the values it accepts: a mistake in the caller's
/// configuration (a country code, a load limit), not in the input it later reads.
///
/// Thrown, not trapped, so that an app or service reading its settings from a file or a server
/// can report the bad setting and carry on.
///
///     do throws(ConfigurationError) {
///       let parser = try PhoneNumberParser(defaultCountryCode: 1000)
///       print(parser)
///     } catch {
///       print(error)  // defaultCountryCode 1000 is not in 1...999
///     }
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The parameter given the value, as the initializer names it (`defaultCountryCode`).
  public let parameter: String
  /// The value given, as text.
  public let value: String
  /// The values the parameter accepts, as text (`1...999`).
  public let allowed: String

  /// An error naming `parameter`, the `value` it was given and the values it accepts.
  public init(parameter: String, value: String, allowed: String) {
    self.parameter = parameter
    self.value = value
    self.allowed = allowed
  }

  /// One line naming the parameter, its value and what it accepts.
  public var description: String { "\(parameter) \(value) is not in \(allowed)" }
}
