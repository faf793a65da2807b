import Testing

@testable import KiwiGateway

@Suite("multipart/form-data reader")
struct MultipartFormDataTests {
    static func body(_ parts: [(name: String, bytes: [UInt8])], boundary: String = "b0undary") -> [UInt8] {
        var body: [UInt8] = Array("preamble\r\n".utf8)
        for part in parts {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            body += part.bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    @Test("each part's bytes come back exactly, with its name and type")
    func readsParts() throws {
        let photo = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let parts = try MultipartFormData.parts(of: Self.body([("image", photo), ("note", Array("hi".utf8))]), boundary: "b0undary")
        #expect(parts.map(\.name) == ["image", "note"])
        #expect(Array(parts[0].body) == photo)
        #expect(parts[0].contentType == "image/jpeg")
        #expect(Array(parts[1].body) == Array("hi".utf8))
    }

    @Test("the boundary's text inside a part, without the CRLF before it, does not end the part")
    func boundaryTextInsideAPart() throws {
        let bytes = Array("--b0undary not a delimiter --b0undary".utf8)
        let parts = try MultipartFormData.parts(of: Self.body([("image", bytes)]), boundary: "b0undary")
        #expect(parts.count == 1 && Array(parts[0].body) == bytes)
    }

    @Test("a part no boundary closes is malformed")
    func unclosedPart() {
        let body = Array("--b0undary\r\nContent-Disposition: form-data; name=\"image\"\r\n\r\nabc".utf8)
        #expect(throws: MultipartFormData.FormatError.self) { try MultipartFormData.parts(of: body, boundary: "b0undary") }
    }

    @Test("a body without the boundary is malformed")
    func missingBoundary() {
        #expect(throws: MultipartFormData.FormatError.self) { try MultipartFormData.parts(of: Array("nothing here".utf8), boundary: "b0undary") }
    }
}
