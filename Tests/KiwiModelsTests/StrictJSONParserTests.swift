import KiwiModels
import KiwiStrictJSON
import Testing

@Suite("Strict JSON parser")
struct StrictJSONParserTests {
    @Test("parses nested values and keeps number text and key order")
    func parsesNestedValues() throws {
        let value = try json(#"{"b": [1, 2.50, -3e2, true, null], "a": "x\u00e9\ud83d\ude00"}"#)
        guard case .object(let object) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(object.keys == ["b", "a"])
        #expect(object["a"] == .string("xé😀"))
        guard case .array(let elements) = object["b"], case .number(let fraction) = elements[1] else {
            Issue.record("expected an array with a number")
            return
        }
        #expect(fraction.text == "2.50")
        #expect(fraction.value == 2.5)
    }

    @Test(
        "refuses malformed documents",
        arguments: [
            "", "{", "[1,]", #"{"a":1,}"#, "01", "1.", "+1", "'a'", #""\x""#, #""\ud800""#, "nul", "[1] 2", "\"a\u{01}\"",
        ]
    )
    func refusesMalformed(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try json(text) }
    }

    @Test("refuses nesting deeper than the limit")
    func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONSyntaxError.self) { try json(deep) }
        let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try json(allowed) }
    }

    @Test("serialises back to equivalent JSON")
    func roundTrips() throws {
        let text = #"{"name":"a \"quoted\"\nline","n":[0.5,12,true,null]}"#
        #expect(try json(text).serialized() == text)
    }

    @Test("serialises control characters as lower-case \\u escapes and other text as its UTF-8")
    func serialisesEscapes() {
        let value = JSONValue.string("\u{01}\u{1f}\t\r\\ é😀")
        #expect(value.serialized() == #""\u0001\u001f\t\r\\ é😀""#)
        #expect(value.serializedUTF8() == Array(value.serialized().utf8))
    }
}
