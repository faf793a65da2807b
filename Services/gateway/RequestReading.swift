import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import KiwiStrictJSON
import NIOCore

/// How every route reads what a client sends, so that one mistake is one 400 everywhere: a body past the route's
/// largest, text that is not one JSON object (a member written twice included, ``StrictJSONParser``), a member of the
/// wrong type named by its JSON path, and a path id that names nothing.
extension Request {
    /// The body's bytes; 400 when it is larger than `largest`.
    func collectedBody(largest: Int) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: largest)
        } catch {
            throw APIError.badRequest("The body may be at most \(largest / 1024) KiB.")
        }
    }

    /// The body as `Body`, parsed strictly and decoded from that one tree (``JSONValueDecoder``). A rule `Body`
    /// checks while it decodes answers with its own ``APIError``; a member of the wrong type, or one left out, is a
    /// 400 naming its path; anything that is not one JSON object is a 400 showing `example`.
    func decodedBody<Body: Decodable>(as type: Body.Type = Body.self, largest: Int, example: String) async throws -> Body {
        let bytes = try await collectedBody(largest: largest)
        guard let value = try? StrictJSONParser().parse(Data(bytes.readableBytesView)), case .object = value else {
            throw APIError.badRequest("The body must be one JSON object such as \(example).")
        }
        do {
            return try JSONValueDecoder().decode(Body.self, from: value)
        } catch let error as DecodingError {
            throw APIError.badRequest("The body breaks a rule: \(error.memberProblem).")
        }
    }
}

extension Parameters {
    /// The query parameter `name` as a whole number within `range`, written in digits only (no sign, no fraction), as
    /// the contract's integer parameters are; nil when it is absent, a 400 naming the range otherwise.
    func wholeNumber(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let asked = self[name[...]] else { return nil }
        guard !asked.isEmpty, asked.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(asked), range.contains(number) else {
            throw APIError.badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// The boolean `name`: false when absent; anything but `true` or `false`, spelled exactly as a JSON boolean like
    /// the API's other booleans, is a 400.
    func flag(_ name: String) throws -> Bool {
        switch self[name[...]].map(String.init) {
        case nil, "false"?: false
        case "true"?: true
        default: throw APIError.badRequest("\(name) must be true or false.")
        }
    }
}

extension GatewayRequestContext {
    /// The path's `{id}` (or another of its ids, `name`); `missing` (the route's 404) when it is not a UUID, since such an
    /// id names nothing Kiwi keeps.
    func pathID(_ name: String = "id", else missing: APIError) throws -> UUID {
        guard let id = parameters.get(name).flatMap(UUID.init(uuidString:)) else { throw missing }
        return id
    }
}

/// A member of a request body by name: the keys of a body that checks each member with its own message.
struct BodyMember: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer<BodyMember> {
    /// Whether the body has member `name`, `null` included.
    func has(_ name: String) -> Bool { contains(BodyMember(stringValue: name)) }

    /// A 400 naming the first member that is not `allowed`: a client's typo must not pass for a member left out.
    func refuseMembers(otherThan allowed: [String]) throws {
        if let unknown = allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw APIError.badRequest("\(unknown.stringValue) is not a member Kiwi reads here; send only \(allowed.joined(separator: ", ")).")
        }
    }

    /// Member `name`, nil when it is left out; `wrong` when it is `null` or not a `Value`.
    func value<Value: Decodable>(_ name: String, else wrong: APIError) throws -> Value? {
        guard has(name) else { return nil }
        do {
            return try decode(Value.self, forKey: BodyMember(stringValue: name))
        } catch is DecodingError {
            throw wrong
        }
    }

    /// Member `name` as a JSON merge patch reads it (RFC 7396): left out keeps, `null` clears, a `Value` sets;
    /// `wrong` for anything else.
    func change<Value: Decodable & Sendable & Hashable>(_ name: String, else wrong: APIError) throws -> FieldChange<Value> {
        guard has(name) else { return .keep }
        if try decodeNil(forKey: BodyMember(stringValue: name)) { return .clear }
        return .set(try value(name, else: wrong)!)
    }

    /// Member `name` as an id, nil when it is left out; a 400 when it is not a UUID.
    func id(_ name: String) throws -> UUID? {
        let wrong = APIError.badRequest("\(name) must be an id (a UUID).")
        return try value(name, else: wrong).map { (text: String) in
            guard let id = UUID(uuidString: text) else { throw wrong }
            return id
        }
    }
}

extension DecodingError {
    /// The member at fault by its JSON path (`$.ingredients[2]`), and what it must be.
    fileprivate var memberProblem: String {
        switch self {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            "\(Self.path(context.codingPath)) must be \(Self.kind(type))"
        case .keyNotFound(let key, let context):
            "\(Self.path(context.codingPath + [key])) is required"
        case .dataCorrupted(let context):
            "\(Self.path(context.codingPath)) is not valid: \(context.debugDescription)"
        @unknown default:
            "\(self)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("$") { path, key in key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)" }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is UUID.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "a \(type)"
        }
    }
}
