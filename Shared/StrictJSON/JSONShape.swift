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
    /// The shape, and a rule across its members that Structured Outputs cannot express (one `stepDetails` item per
    /// step): the validator checks it, the JSON Schema is the wrapped shape's, and the prompt tells the model.
    case constrained(JSONShape, JSONConstraint)
}

/// A named member of an object shape.
public struct JSONProperty: Sendable {
    public let name: String
    public let shape: JSONShape
    /// Whether the validator refuses a value without the member. Documents clients write, and members added to
    /// answers later, may leave some out.
    public let isRequired: Bool
    /// Whether the JSON Schema lists the member as required: Structured Outputs in strict mode demands every member.
    public let isRequiredInSchema: Bool

    public init(_ name: String, _ shape: JSONShape, required: Bool = true) {
        self.init(name, shape, required: required, requiredInSchema: required)
    }

    private init(_ name: String, _ shape: JSONShape, required: Bool, requiredInSchema: Bool) {
        self.name = name
        self.shape = shape
        self.isRequired = required
        self.isRequiredInSchema = requiredInSchema
    }

    /// The same member with another shape.
    func withShape(_ shape: JSONShape) -> JSONProperty {
        JSONProperty(name, shape, required: isRequired, requiredInSchema: isRequiredInSchema)
    }

    /// A member added to a model's answers later: required in the JSON Schema sent to the model, which must write it,
    /// but accepted absent by the validator, so that answers recorded before it was added still validate.
    public static func addedLater(_ name: String, _ shape: JSONShape) -> JSONProperty {
        JSONProperty(name, shape, required: false, requiredInSchema: true)
    }
}

/// A rule across an object's members (``JSONShape/constrained(_:_:)``).
public struct JSONConstraint: Sendable {
    /// The violations of the value found at the path; the value may be of any type (the wrapped shape reports that).
    let check: @Sendable (JSONValue, String) -> [JSONViolation]

    public init(_ check: @escaping @Sendable (_ value: JSONValue, _ path: String) -> [JSONViolation]) {
        self.check = check
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
