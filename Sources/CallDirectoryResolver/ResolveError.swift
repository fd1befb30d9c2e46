import CallDirectoryFormat
import CallDirectoryListing

/// Why a caller string could not be resolved.
///
/// Thrown by ``Resolver/resolve(caller:)``. Neither case is a guess: an invalid number is refused,
/// never resolved as something close to it.
///
///     do throws(ResolveError) {
///       let resolution = try resolver.resolve(caller: "+33 6 12 34 56 78")
///       print(resolution)
///     } catch {
///       switch error {
///       case .invalidNumber(let fault): print("not a number: \(fault)")
///       case .invalidCaller(let message): print("not a caller: \(message)")
///       case .damagedDirectory(let directory, let fault): print("\(directory.name) is damaged: \(fault)")
///       }
///     }
public enum ResolveError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The caller string is not a phone number under `Spec/INPUT.md` section 1.
  case invalidNumber(PhoneNumberError)
  /// The caller string names no number a resolver can read: a SIP URI without a user part, or
  /// whose user part is a name.
  case invalidCaller(String)
  /// A directory of the stack is damaged where the number's lookup read it.
  case damagedDirectory(Resolution.Directory, FormatError)

  /// A message naming the problem: the parser's, or the directory's name and the damage.
  public var description: String {
    switch self {
    case .invalidNumber(let error): return error.description
    case .invalidCaller(let message): return message
    case .damagedDirectory(let directory, let error): return "\(directory.name): \(error)"
    }
  }
}
