import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import NIOCore
import Testing

@testable import KiwiGateway

/// `/v1/devices/{token}` and what signing out and deleting the account do to devices, in-process on fakes.
@Suite("Gateway router: devices")
struct DevicesRouterTests {
    static let token = String(repeating: "0a1B", count: 16)
    static let body = ByteBuffer(string: #"{"bundleId": "com.example.kiwi", "environment": "sandbox"}"#)

    @Test("PUT registers the token for the caller and answers the device, its token shown by its ending only")
    func registers() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(.put, "/v1/devices/\(Self.token)", token: token, body: Self.body)
            #expect(answer.status == .ok)
            let device = try KiwiJSON.decoder().decode(Device.self, from: Data(answer.body.readableBytesView))
            #expect(device.tokenEnding == "0a1b0a1b")
            #expect(device.bundleId == "com.example.kiwi")
            #expect(device.environment == .sandbox)
            #expect(!String(buffer: answer.body).lowercased().contains(Self.token.lowercased()))
        }
        #expect(try await gateway.devices.devices(of: session.userId, at: Date()).count == 1)
    }

    @Test(
        "a token that is not 64 to 200 hex digits, an even number of them, is 400",
        arguments: [
            String(repeating: "a", count: 62), String(repeating: "a", count: 65), String(repeating: "a", count: 202),
            String(repeating: "g", count: 64),
        ]
    )
    func malformedToken(_ text: String) async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for method in [HTTPRequest.Method.put, .delete] {
                let answer = try await client.execute(method, "/v1/devices/\(text)", token: token, body: Self.body)
                #expect(answer.status == .badRequest, "\(method)")
                #expect(answer.errorCode == "bad_request", "\(method)")
            }
        }
        #expect(try await gateway.devices.devices(of: session.userId, at: Date()).isEmpty)
    }

    @Test(
        "a body without a bundle id, with a malformed one, another environment or another member is 400",
        arguments: [
            #"{"environment": "sandbox"}"#, #"{"bundleId": "kiwi", "environment": "sandbox"}"#,
            #"{"bundleId": "com.example kiwi", "environment": "sandbox"}"#, #"{"bundleId": "com.example.kiwi", "environment": "staging"}"#,
            #"{"bundleId": "com.example.kiwi", "environment": "sandbox", "token": "x"}"#, "[]",
        ]
    )
    func malformedBody(_ body: String) async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(.put, "/v1/devices/\(Self.token)", token: token, body: ByteBuffer(string: body))
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
        }
        #expect(try await gateway.devices.devices(of: session.userId, at: Date()).isEmpty)
    }

    @Test("DELETE removes the caller's device; another person's, or one never registered, is 404")
    func removes() async throws {
        let gateway = FakeGateway()
        let (owner, session, _) = gateway.signIn()
        let (stranger, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.put, "/v1/devices/\(Self.token)", token: owner, body: Self.body).status == .ok)
            #expect(try await client.execute(.delete, "/v1/devices/\(Self.token)", token: stranger).status == .notFound)
            #expect(try await client.execute(.delete, "/v1/devices/\(Self.token)", token: owner).status == .noContent)
            #expect(try await client.execute(.delete, "/v1/devices/\(Self.token)", token: owner).status == .notFound)
        }
        #expect(try await gateway.devices.devices(of: session.userId, at: Date()).isEmpty)
    }

    @Test("signing out removes the devices that session registered, not those of the person's other sessions")
    func signOutRemovesTheSessionsDevices() async throws {
        let gateway = FakeGateway()
        let (phone, session, _) = gateway.signIn()
        let tablet = UUID().uuidString
        gateway.sessions.signIn(tablet, userID: session.userId)
        let tabletToken = String(repeating: "cd", count: 32)
        try await gateway.test { client async throws in
            #expect(try await client.execute(.put, "/v1/devices/\(Self.token)", token: phone, body: Self.body).status == .ok)
            #expect(try await client.execute(.put, "/v1/devices/\(tabletToken)", token: tablet, body: Self.body).status == .ok)
            #expect(try await client.execute(.delete, "/v1/auth/session", token: phone).status == .noContent)
        }
        #expect(try await gateway.devices.devices(of: session.userId, at: Date()).map(\.tokenEnding) == ["cdcdcdcd"])
    }

    @Test("deleting the account removes every device of the person")
    func accountDeletionRemovesDevices() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.put, "/v1/devices/\(Self.token)", token: token, body: Self.body).status == .ok)
            #expect(try await client.execute(.delete, "/v1/account", token: token).status == .ok)
        }
        #expect(try await gateway.devices.devices(of: session.userId, at: Date()).isEmpty)
    }
}
