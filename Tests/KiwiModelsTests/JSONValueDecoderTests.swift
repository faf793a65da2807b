import Foundation
import KiwiModels
import KiwiStrictJSON
import Testing

@Suite("Decoding from a parsed JSON tree")
struct JSONValueDecoderTests {
    @Test("a scan response decodes from its tree exactly as JSONDecoder decodes its text")
    func matchesJSONDecoder() throws {
        let text = try fixture("valid-scan-response.json")
        let fromTree = try JSONValueDecoder().decode(ScanResponse.self, from: try StrictJSONParser().parse(text))
        #expect(fromTree == (try KiwiJSON.decoder().decode(ScanResponse.self, from: text)))
    }

    @Test("optional members decode as nil when null or absent, and present when given")
    func optionals() throws {
        struct Shape: Decodable, Equatable {
            var a: String?
            var b: String?
            var c: String?
        }
        #expect(try JSONValueDecoder().decode(Shape.self, from: json(#"{"a": null, "c": "x"}"#)) == Shape(a: nil, b: nil, c: "x"))
    }

    @Test("integers decode when written whole or with an integral value, and not from a fraction")
    func integers() throws {
        #expect(try JSONValueDecoder().decode([Int].self, from: json("[12, -3, 1.2e1]")) == [12, -3, 12])
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: json("1.5")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt8.self, from: json("300")) }
    }

    @Test("a missing member and a member of the wrong type are decoding errors with the member's path")
    func errorsCarryPaths() throws {
        struct Shape: Decodable {
            var name: String
            var items: [Int]
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Shape.self, from: json(#"{"items": []}"#)) }
        do {
            _ = try JSONValueDecoder().decode(Shape.self, from: json(#"{"name": "x", "items": [1, "two"]}"#))
            Issue.record("a string decoded as an integer")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1"])
        }
    }
}
