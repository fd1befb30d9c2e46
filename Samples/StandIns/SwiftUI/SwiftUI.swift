// A stand-in for the part of Apple's SwiftUI that the host-app sample uses, with the same call
// shapes (names, labels, builders, property wrappers), so that `swift build` compiles the
// sample's view code on Linux. Nothing draws and nothing runs: bodies trap. Only the Linux-only
// sample targets of Package.swift see this module; it is in no product. The generic parameters
// are simpler than Apple's where a call site cannot tell the difference.
@_exported import Foundation  // as the real module re-exports it

private func standIn() -> Never { fatalError("a stand-in for Apple's SwiftUI: the samples are compiled here, not run") }

/// A piece of user interface.
@MainActor @preconcurrency public protocol View {
  associatedtype Body: View
  @ViewBuilder var body: Body { get }
}

extension Never: View {
  public var body: Never { standIn() }
}

/// Builds a view from the statements of a closure.
@resultBuilder public enum ViewBuilder {
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
    TupleView()
  }
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
  public static func buildEither<First: View, Second: View>(first: First) -> ConditionalContent<First, Second> {
    ConditionalContent()
  }
  public static func buildEither<First: View, Second: View>(second: Second) -> ConditionalContent<First, Second> {
    ConditionalContent()
  }
}

extension Optional: View where Wrapped: View {
  public var body: Never { standIn() }
}

/// A view of nothing.
public struct EmptyView: View {
  nonisolated public init() {}
  public var body: Never { standIn() }
}

/// The views of a builder's statements, in order.
public struct TupleView<T>: View {
  nonisolated init() {}
  public var body: Never { standIn() }
}

/// One of two views, as an `if` chose.
public struct ConditionalContent<First: View, Second: View>: View {
  nonisolated init() {}
  public var body: Never { standIn() }
}

/// A view with a modifier applied.
public struct ModifiedContent<Content: View>: View {
  nonisolated init() {}
  public var body: Never { standIn() }
}

/// Text.
public struct Text: View {
  public init(_ content: some StringProtocol) {}
  public var body: Never { standIn() }
}

/// A button.
public struct Button<Label: View>: View {
  public init(_ title: some StringProtocol, action: @escaping @MainActor () -> Void) where Label == Text {}
  public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
  public var body: Never { standIn() }
}

/// A one-line text field bound to a string.
public struct TextField: View {
  public init(_ title: some StringProtocol, text: Binding<String>) {}
  public var body: Never { standIn() }
}

/// Views side by side.
public struct HStack<Content: View>: View {
  public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { standIn() }
}

/// A scrolling list of rows.
public struct List<Content: View>: View {
  public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { standIn() }
}

/// A titled group of rows.
public struct Section<Content: View>: View {
  public init(_ title: some StringProtocol, @ViewBuilder content: () -> Content) {}
  public var body: Never { standIn() }
}

/// A row for each element of a collection.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
  public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
  public var body: Never { standIn() }
  /// Lets the user delete rows; `action` gets the deleted rows' offsets in `data`.
  public func onDelete(perform action: ((IndexSet) -> Void)?) -> ModifiedContent<Self> { ModifiedContent() }
}

/// A navigation container.
public struct NavigationStack<Root: View>: View {
  public init(@ViewBuilder root: () -> Root) {}
  public var body: Never { standIn() }
}

extension View {
  public func navigationTitle(_ title: some StringProtocol) -> ModifiedContent<Self> { ModifiedContent() }
  /// Runs `action` when the view appears, cancelled when it disappears.
  public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void)
    -> ModifiedContent<Self>
  { ModifiedContent() }
  public func disabled(_ disabled: Bool) -> ModifiedContent<Self> { ModifiedContent() }
}

/// A reference to a value that a view reads and writes.
@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {}
  public var wrappedValue: Value {
    get { standIn() }
    nonmutating set { standIn() }
  }
  public var projectedValue: Binding<Value> { self }
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { standIn() }
}

/// A value a view owns.
@MainActor @propertyWrapper public struct State<Value> {
  public init(wrappedValue value: Value) {}
  public var wrappedValue: Value {
    get { standIn() }
    nonmutating set { standIn() }
  }
  public var projectedValue: Binding<Value> { standIn() }
}

/// An observable object a view binds to.
@MainActor @propertyWrapper @dynamicMemberLookup public struct Bindable<Value: AnyObject> {
  public init(wrappedValue value: Value) {}
  public var wrappedValue: Value { standIn() }
  public var projectedValue: Bindable<Value> { self }
  public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
    standIn()
  }
}

/// A part of an app's interface: a window.
@MainActor @preconcurrency public protocol Scene {
  associatedtype Body: Scene
  @SceneBuilder var body: Body { get }
}

extension Never: Scene {}

/// Builds a scene.
@resultBuilder public enum SceneBuilder {
  public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// A window of views.
public struct WindowGroup<Content: View>: Scene {
  public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { standIn() }
}

/// An app.
@MainActor @preconcurrency public protocol App {
  associatedtype Body: Scene
  @SceneBuilder var body: Body { get }
  init()
}
