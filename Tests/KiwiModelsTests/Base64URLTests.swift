import Foundation
import KiwiModels
import Testing

@Suite("base64url")
struct Base64URLTests {
    @Test("encodes without padding and with the URL-safe alphabet, and decodes back")
    func roundTrips() throws {
        let bytes = Data([0xFB, 0xFF, 0xBF, 0x00, 0x01])  // base64 "+/+/AAE=" has both special characters and padding
        #expect(bytes.base64URLEncodedString == "-_-_AAE")
        #expect(Data(base64URLEncoded: "-_-_AAE") == bytes)
    }

    @Test("refuses text that is not base64url")
    func refusesGarbage() {
        #expect(Data(base64URLEncoded: "not base64!") == nil)
    }
}
