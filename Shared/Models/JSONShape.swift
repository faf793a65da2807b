/// The rules one JSON value must follow. A shape is the single description from which both
/// the validator (``JSONShape/violations(of:at:)``) and the JSON Schema sent to the model
/// (``JSONShape/jsonSchema``) are derived, so the two cannot disagree.
public indirect enum JSONShape: Sendable {
    /// An object with these properties (each required unless it says otherwise), nothing else allowed.
    case object([JSONProperty])
    /// An array whose element count lies in `count`, each element of the `element` shape.
    case array(of: JSONShape, count: ClosedRange<Int>)
    /// A string whose length in user-perceived characters lies in `length`.
    case string(length: ClosedRange<Int>)
    /// A string that is a UUID in its canonical 8-4-4-4-12 form.
    case uuid
    /// Any JSON number within the range.
    case number(ClosedRange<Double>)
    /// A number written as an integer (no fraction, no exponent) within the range.
    case integer(ClosedRange<Int>)
    case boolean
    /// One of the listed strings.
    case oneOf([String])
    /// The shape, or `null`.
    case nullable(JSONShape)
}

/// A named member of an object shape.
public struct JSONProperty: Sendable {
    public let name: String
    public let shape: JSONShape
    /// Whether the member must be present. Shapes sent to the model have only required members (Structured Outputs
    /// demands it); documents clients write, and members added to answers later, may leave some out.
    public let isRequired: Bool

    public init(_ name: String, _ shape: JSONShape, required: Bool = true) {
        self.name = name
        self.shape = shape
        self.isRequired = required
    }
}

/// One rule a JSON document broke, and where: a JSONPath such as `$.recipes[0].steps[2]`.
public struct JSONViolation: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
