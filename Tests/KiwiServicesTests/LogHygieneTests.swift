import Foundation
import KiwiDevelopment
import KiwiJPEG
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

/// Privacy (docs/architecture.md, "5. Privacy guarantees"): what the services write to their logs never identifies a
/// user or carries their photo.
@Suite("Log hygiene", .serialized, .timeLimit(.minutes(3)))
struct LogHygieneTests {
    /// A photo with location metadata, as phones take them.
    let photo = JPEGFixtures.withMetadata(SyntheticJPEG.make(size: 48 * 1024, seed: 77))
    let email = "hygiene.\(UUID().uuidString.lowercased().prefix(8))@privaterelay.appleid.com"

    /// Runs the whole story through the three services and returns everything each one wrote, with what must not
    /// appear in it: the email, the session token, the full user id, a device's token, and the answer's first recipe
    /// name.
    func story() async throws -> (logs: [String: Data], secrets: [String: String]) {
        let (rig, secrets) = try await SystemRig.run { rig in
            let token = try await rig.signIn(email: email)
            let userID = try await rig.userID(of: token).uuidString
            let scan = try await rig.scan(photo, token: token)
            try #require(scan.status == 200)
            let answer = try ScanResponseContract.validate(scan.body)
            #expect(try await rig.send(.GET, "/v1/quota", token: token).status == 200)
            #expect(try await rig.send(.GET, "/v1/quota", token: "not-\(token)").status == 401)
            let device = (0..<32).map { _ in UInt8.random(in: 0...255) }.hexEncodedString
            let registration = Array(#"{"bundleId": "com.example.kiwi", "environment": "sandbox"}"#.utf8)
            let registered = try await rig.send(.PUT, "/v1/devices/\(device)", token: token, contentType: "application/json", body: registration)
            #expect(registered.status == 200)
            #expect(try await rig.send(.DELETE, "/v1/account", token: token).status == 200)
            let secrets = [
                "email": email, "session token": token, "device token": device, "user id (lowercase)": userID.lowercased(),
                "user id (uppercase)": userID.uppercased(),
                "recipe name from the model's answer": try #require(answer.recipes.first?.name),
            ]
            return (rig, secrets)
        }
        var logs: [String: Data] = [:]
        for (name, process) in rig.processes { logs[name] = Data(process.capturedOutput().utf8) }
        return (logs, secrets)
    }

    @Test("no service logs the email, the session token, the full user id, a device's token, the photo's bytes or base64, or the model's answer")
    func nothingIdentifyingIsLogged() async throws {
        let (logs, secrets) = try await story()
        try #require(logs.count == 3)
        let chunks = Self.photoFingerprints(photo)
        for (service, output) in logs {
            try #require(!output.isEmpty, "\(service) logged nothing: the test would prove nothing")
            let text = String(decoding: output, as: UTF8.self)
            for (what, secret) in secrets {
                #expect(!text.contains(secret), "\(service) logged the \(what)")
            }
            for (what, fingerprint) in chunks {
                #expect(output.range(of: fingerprint) == nil, "\(service) logged the photo (\(what))")
            }
        }
    }

    @Test("every service writes only JSON log lines, and user ids appear as 8-character prefixes")
    func logLinesAreRedactedJSON() async throws {
        let (logs, secrets) = try await story()
        let prefix = String(try #require(secrets["user id (lowercase)"]).prefix(8))
        var seenPrefix = false
        for (service, output) in logs {
            for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object != nil, "\(service) wrote a line that is not a JSON object: \(line.prefix(200))")
                if let user = object?["user"] as? String {
                    #expect(user.count <= 8)
                    seenPrefix = seenPrefix || user == prefix
                }
            }
        }
        #expect(seenPrefix, "no log line named the user by their prefix, so the redaction went unchecked")
    }

    /// Pieces of the photo's scan data as they would appear if logged: raw bytes, hex, and base64 at each of the three
    /// alignments a base64 encoding of the whole file could take.
    static func photoFingerprints(_ jpeg: [UInt8]) -> [String: Data] {
        let middle = Array(jpeg[(jpeg.count / 2)..<(jpeg.count / 2 + 48)])
        var fingerprints = [
            "raw bytes": Data(middle),
            "hex": Data(middle.map { String(format: "%02x", $0) }.joined().utf8),
        ]
        for offset in 0..<3 {
            let aligned = Array(middle[offset..<(offset + 45)])
            fingerprints["base64 at offset \(offset)"] = Data(Data(aligned).base64EncodedString().utf8)
            fingerprints["base64url at offset \(offset)"] = Data(
                Data(aligned).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").utf8
            )
        }
        return fingerprints
    }
}
