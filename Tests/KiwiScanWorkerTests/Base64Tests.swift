import Foundation
import KiwiOpenAI
import NIOCore
import Testing

@Suite("Base64 into a request body")
struct Base64Tests {
    @Test("every length up to two groups encodes as Foundation does, padding included", arguments: 0...7)
    func shortInputsMatchFoundation(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 200) }
        var buffer = ByteBuffer()
        buffer.writeBase64(bytes)
        #expect(String(buffer: buffer) == Data(bytes).base64EncodedString())
    }

    @Test("a photo-sized input encodes as Foundation does, after what the buffer held")
    func largeInputMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<262_145).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var buffer = ByteBuffer(string: "\"data:")
        buffer.writeBase64(bytes)
        #expect(String(buffer: buffer) == "\"data:" + Data(bytes).base64EncodedString())
    }
}
