/// Reads a fridge answer (or a plan's outline) as the model writes it, fragment by fragment, and hands over each
/// element a client can be shown as soon as it is complete: the top-level `ingredients` array when it closes, then each
/// object of the top-level `recipes` (or a plan's `meals`, a receipt's `lines`) array when it closes. A fragment may end anywhere: inside a string, an escape, a number or a
/// literal.
///
/// It costs one pass over the bytes: outside the elements it hands over it only follows the structure (open
/// containers, strings and escapes, the current top-level member, the index in its list) and builds no values; each
/// element is parsed by ``StrictJSONParser`` when it closes, so what it hands over is valid JSON. Malformed JSON is an
/// error as soon as it shows (a broken structure or escape at its byte, a bad number or literal when it ends, a bad
/// element when it closes), and so is every later read: nothing more is handed over. It keeps only the element being
/// read, so its memory is bounded by the answer's size.
public struct IncrementalJSONReader: Sendable {
    /// A complete element of the answer, as the model wrote it.
    public enum Element: Hashable, Sendable {
        /// The answer's `ingredients` array.
        case ingredients(JSONValue)
        /// The recipe at `index` of the answer's `recipes`.
        case recipe(index: Int, JSONValue)
        /// The meal at `index` of a plan's `meals`.
        case meal(index: Int, JSONValue)
        /// The line at `index` of a receipt's `lines`.
        case line(index: Int, JSONValue)
    }

    /// What the next byte may be.
    private enum Syntax {
        case value
        case valueOrClose
        case key
        case keyOrClose
        case colon
        case commaOrClose
        case string
        case escape
        case hexDigit(remaining: Int)
        /// A number or a literal (`true`, `false`, `null`), checked when it ends.
        case bare
        case end
    }

    /// What the bytes being kept are.
    private enum Capture {
        /// A member name of the top-level object.
        case key
        /// A number or a literal outside any element, kept only to be checked.
        case bare
        case ingredients
        case recipe(index: Int)
        case meal(index: Int)
        case line(index: Int)
    }

    /// The top-level members whose elements are handed over.
    private enum Member {
        case ingredients
        case recipes
        case meals
        case lines
        case other

        /// Whether each object of the member's array is handed over.
        var isList: Bool { self == .recipes || self == .meals || self == .lines }
    }

    private static let maximumDepth = StrictJSONParser().maximumDepth

    private var syntax = Syntax.value
    /// The open containers, innermost last: `{` or `[`.
    private var containers: [UInt8] = []
    /// Whether the string being read is a member name.
    private var stringIsKey = false
    private var member = Member.other
    private var memberNames: Set<String> = []
    /// The index of the object being read in `recipes`, `meals` or `lines`.
    private var listIndex = 0
    private var capture: Capture?
    /// How many containers were open where the capture began.
    private var captureDepth = 0
    private var captureOffset = 0
    private var captured: [UInt8] = []
    private var offset = 0
    private var failure: JSONSyntaxError?

    public init() {}

    /// Reads the next fragment of the answer; returns the elements it completed, in order.
    public mutating func read(_ fragment: some Collection<UInt8>) throws(JSONSyntaxError) -> [Element] {
        let result = fragment.withContiguousStorageIfAvailable { read(bytes: $0) } ?? Array(fragment).withUnsafeBufferPointer { read(bytes: $0) }
        return try result.get()
    }

    /// Reads the next fragment of the answer, given as text; returns the elements it completed, in order.
    public mutating func read(_ fragment: String) throws(JSONSyntaxError) -> [Element] {
        try read(fragment.utf8)
    }

    private mutating func read(bytes: UnsafeBufferPointer<UInt8>) -> Result<[Element], JSONSyntaxError> {
        if let failure { return .failure(failure) }
        var elements: [Element] = []
        var keptFrom = 0
        var index = 0
        do throws(JSONSyntaxError) {
            while index < bytes.count {
                if try step(bytes[index], at: index, keptFrom: &keptFrom, in: bytes, into: &elements) { index += 1 }
            }
        } catch {
            failure = error
            return .failure(error)
        }
        if capture != nil { captured.append(contentsOf: bytes[keptFrom...]) }
        offset += bytes.count
        return .success(elements)
    }

    /// Takes `byte` at `index`; false when it ended a number or a literal and must be taken again.
    private mutating func step(
        _ byte: UInt8,
        at index: Int,
        keptFrom: inout Int,
        in bytes: UnsafeBufferPointer<UInt8>,
        into elements: inout [Element]
    ) throws(JSONSyntaxError) -> Bool {
        func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(reason: reason, offset: offset + index) }
        switch syntax {
        case .string:
            switch byte {
            case UInt8(ascii: "\""):
                try endString(at: index, keptFrom: keptFrom, in: bytes)
            case UInt8(ascii: "\\"):
                syntax = .escape
            case 0x00..<0x20:
                throw fail("unescaped control character in string")
            default:
                break
            }
        case .escape:
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                syntax = .string
            case UInt8(ascii: "u"):
                syntax = .hexDigit(remaining: 4)
            default:
                throw fail("invalid escape")
            }
        case .hexDigit(let remaining):
            guard Self.isHexDigit(byte) else { throw fail("invalid \\u escape") }
            syntax = remaining == 1 ? .string : .hexDigit(remaining: remaining - 1)
        case .bare:
            guard Self.isBare(byte) else {
                if case .bare = capture {
                    _ = try kept(upTo: index, keptFrom: keptFrom, in: bytes)
                    capture = nil
                }
                endValue()
                return false
            }
        case _ where byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D:
            break
        case .value, .valueOrClose:
            if byte == UInt8(ascii: "]"), case .valueOrClose = syntax {
                try close(byte, at: index, keptFrom: keptFrom, in: bytes, into: &elements)
                break
            }
            beginValue(byte, at: index, keptFrom: &keptFrom)
            switch byte {
            case UInt8(ascii: "{"):
                try open(byte, at: offset + index)
                syntax = .keyOrClose
            case UInt8(ascii: "["):
                try open(byte, at: offset + index)
                if containers.count == 2, member.isList { listIndex = 0 }
                syntax = .valueOrClose
            case UInt8(ascii: "\""):
                stringIsKey = false
                syntax = .string
            case _ where Self.isBare(byte):
                syntax = .bare
            default:
                throw fail("unexpected character")
            }
        case .key, .keyOrClose:
            if byte == UInt8(ascii: "}"), case .keyOrClose = syntax {
                try close(byte, at: index, keptFrom: keptFrom, in: bytes, into: &elements)
                break
            }
            guard byte == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            if containers.count == 1, capture == nil { begin(.key, at: index, keptFrom: &keptFrom) }
            stringIsKey = true
            syntax = .string
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw fail("expected ':'") }
            syntax = .value
        case .commaOrClose:
            switch byte {
            case UInt8(ascii: ","):
                let inObject = containers.last == UInt8(ascii: "{")
                if !inObject, containers.count == 2, member.isList { listIndex += 1 }
                syntax = inObject ? .key : .value
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                try close(byte, at: index, keptFrom: keptFrom, in: bytes, into: &elements)
            default:
                throw fail("expected ',' or a closing bracket")
            }
        case .end:
            throw fail("unexpected text after the JSON value")
        }
        return true
    }

    /// Starts keeping the value `byte` begins when it is an element to hand over, or a number or literal to check.
    private mutating func beginValue(_ byte: UInt8, at index: Int, keptFrom: inout Int) {
        guard capture == nil else { return }
        if containers.count == 1, member == .ingredients, byte == UInt8(ascii: "[") {
            begin(.ingredients, at: index, keptFrom: &keptFrom)
        } else if containers.count == 2, member.isList, containers.last == UInt8(ascii: "["), byte == UInt8(ascii: "{") {
            let element: Capture =
                switch member {
                case .recipes: .recipe(index: listIndex)
                case .meals: .meal(index: listIndex)
                default: .line(index: listIndex)
                }
            begin(element, at: index, keptFrom: &keptFrom)
        } else if Self.isBare(byte) {
            begin(.bare, at: index, keptFrom: &keptFrom)
        }
    }

    private mutating func begin(_ kind: Capture, at index: Int, keptFrom: inout Int) {
        capture = kind
        captureDepth = containers.count
        captureOffset = offset + index
        captured.removeAll(keepingCapacity: true)
        keptFrom = index
    }

    /// What was kept, through the byte before `end`, parsed strictly.
    private mutating func kept(upTo end: Int, keptFrom: Int, in bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        captured.append(contentsOf: bytes[keptFrom..<end])
        do {
            return try StrictJSONParser().parse(bytes: captured)
        } catch {
            throw JSONSyntaxError(reason: error.reason, offset: captureOffset + error.offset)
        }
    }

    private mutating func endString(at index: Int, keptFrom: Int, in bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
        guard case .key = capture else {
            if stringIsKey { syntax = .colon } else { endValue() }
            return
        }
        guard case .string(let name) = try kept(upTo: index + 1, keptFrom: keptFrom, in: bytes) else { return }
        capture = nil
        guard memberNames.insert(name).inserted else {
            throw JSONSyntaxError(reason: "duplicate key \"\(name)\"", offset: captureOffset)
        }
        member =
            switch name {
            case "ingredients": .ingredients
            case "recipes": .recipes
            case "meals": .meals
            case "lines": .lines
            default: .other
            }
        syntax = .colon
    }

    private mutating func open(_ byte: UInt8, at offset: Int) throws(JSONSyntaxError) {
        guard containers.count < Self.maximumDepth else {
            throw JSONSyntaxError(reason: "nesting deeper than \(Self.maximumDepth)", offset: offset)
        }
        containers.append(byte)
    }

    private mutating func close(
        _ byte: UInt8,
        at index: Int,
        keptFrom: Int,
        in bytes: UnsafeBufferPointer<UInt8>,
        into elements: inout [Element]
    ) throws(JSONSyntaxError) {
        let opener = byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
        guard containers.last == opener else {
            throw JSONSyntaxError(reason: "unmatched '\(Character(Unicode.Scalar(byte)))'", offset: offset + index)
        }
        containers.removeLast()
        if containers.count == captureDepth, let kind = capture {
            let value = try kept(upTo: index + 1, keptFrom: keptFrom, in: bytes)
            capture = nil
            switch kind {
            case .ingredients: elements.append(.ingredients(value))
            case .recipe(let index): elements.append(.recipe(index: index, value))
            case .meal(let index): elements.append(.meal(index: index, value))
            case .line(let index): elements.append(.line(index: index, value))
            case .key, .bare: break
            }
        }
        endValue()
    }

    private mutating func endValue() {
        syntax = containers.isEmpty ? .end : .commaOrClose
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// A byte of a number or a literal.
    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}
