import Foundation
import KiwiDevelopment
import KiwiJPEG
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// The OpenAPI document against what the gateway really answers: every status a client can be sent is declared.
@Suite("API contract", .serialized, .timeLimit(.minutes(3)))
struct APIContractTests {
    /// One answer the gateway gave: to which operation (method and path template), with what status.
    struct Observation: CustomStringConvertible {
        var method: String
        var path: String
        var status: Int
        var description: String { "\(method.uppercased()) \(path) → \(status)" }
    }

    @Test("every status the gateway answers, provoked one by one, is declared in the OpenAPI document it serves")
    func everyStatusIsDocumented() async throws {
        let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 71)
        // The deadline is what makes the 504 (a model that never answers); the other model faults must end well
        // before it even on a machine the whole suite keeps busy, or they too would read as 504s.
        try await SystemRig.run(environment: ["SCAN_TIMEOUT_SECONDS": "20"]) { rig in
            var seen: [Observation] = []
            func observe(
                _ method: HTTPMethod,
                _ path: String,
                as template: String? = nil,
                token: String? = nil,
                contentType: String? = nil,
                body: [UInt8]? = nil,
                headers: [(String, String)] = []
            ) async throws {
                let answer = try await rig.send(method, path, token: token, contentType: contentType, body: body, headers: headers)
                seen.append(Observation(method: method.rawValue.lowercased(), path: template ?? path, status: answer.status))
            }
            let token = try await rig.signIn()
            let upload = MultipartUpload.make(photo)
            let png = MultipartUpload.make([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            func scan(_ token: String?, _ upload: (contentType: String, body: [UInt8]), requestID: String? = nil) async throws {
                try await observe(
                    .POST,
                    "/v1/scan",
                    token: token,
                    contentType: upload.contentType,
                    body: upload.body,
                    headers: requestID.map { [("X-Request-Id", $0)] } ?? []
                )
            }

            try await observe(.GET, "/health")
            try await observe(.GET, "/health/ready")
            try await observe(.GET, "/openapi.yaml")
            try await observe(.GET, "/openapi.json")
            let tag = try await rig.send(.GET, "/openapi.json").headers.first(name: "ETag") ?? ""
            try await observe(.GET, "/openapi.json", headers: [("If-None-Match", tag)])
            try await observe(.POST, "/v1/auth/apple", contentType: "application/json", body: Array(#"{"identityToken":"not a token"}"#.utf8))
            try await observe(.POST, "/v1/auth/apple", contentType: "application/json", body: Array("not json".utf8))
            try await observe(.GET, "/v1/quota", token: token)
            try await observe(.GET, "/v1/quota")
            try await observe(.GET, "/v1/profile", token: token)
            try await observe(.PUT, "/v1/profile", token: token, contentType: "application/json", body: Array(#"{"allergies": ["milk"]}"#.utf8))
            try await observe(.PUT, "/v1/profile", token: token, contentType: "application/json", body: Array(#"{"allergies": ["nuts"]}"#.utf8))
            try await observe(.PUT, "/v1/profile", contentType: "application/json", body: Array("{}".utf8))
            try await scan(token, upload)
            let location = try #require(
                try await rig.send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body).headers.first(
                    name: "Location"
                )
            )
            try await observe(.GET, location, as: "/v1/scans/{id}", token: token)
            try await observe(.GET, "/v1/scans/\(UUID())", as: "/v1/scans/{id}", token: token)
            try await observe(.GET, "/v1/recipes/\(UUID())?servings=0", as: "/v1/recipes/{id}", token: token)
            try await scan(token, png)
            try await scan(nil, upload)
            // The model's failures, scoped to this test's own requests through the request id the worker forwards.
            for (fault, requestID) in [(StubFault.overLength, "contract-502"), (.insufficientQuota, "contract-503"), (.slow, "contract-504")] {
                rig.stub.setBehaviour(StubBehaviour(fault: fault), scope: requestID)
                try await scan(token, upload, requestID: requestID)
            }
            try await rig.setUsed(4, token: token)
            try await scan(token, upload)
            try await observe(.DELETE, "/v1/auth/session", token: token)
            try await observe(.DELETE, "/v1/auth/session", token: token)
            let other = try await rig.signIn()
            try await observe(.DELETE, "/v1/account", token: other)
            try await observe(.DELETE, "/v1/account")
            try await observe(.GET, "/v1/nothing-here")
            try await observe(.GET, "/v1/scan")

            let statuses = Set(seen.map(\.status))
            #expect(statuses.isSuperset(of: [200, 204, 304, 400, 401, 404, 405, 429, 502, 503, 504]), "\(seen)")

            let document = try #require(try JSONSerialization.jsonObject(with: try await rig.send(.GET, "/openapi.json").body) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let components = try #require((document["components"] as? [String: Any])?["responses"] as? [String: Any])
            for observation in seen {
                if let operation = paths[observation.path]?[observation.method] as? [String: Any] {
                    let responses = try #require(operation["responses"] as? [String: Any])
                    #expect(responses[String(observation.status)] != nil, "undeclared: \(observation)")
                } else if paths[observation.path] != nil {
                    #expect(observation.status == 405 && components["MethodNotAllowed"] != nil, "undeclared: \(observation)")
                } else {
                    #expect(observation.status == 404 && components["NotFound"] != nil, "undeclared: \(observation)")
                }
            }
        }
    }
}
