import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// `POST /v1/scans` with `{"source": "pantry"}` in-process on fakes: what a pantry scan offers the model, how its body
/// is checked, and what it costs (docs/architecture.md, "Scans from the pantry").
@Suite("Gateway router: scans from the pantry")
struct PantryScanRouterTests {
    static let today = FakeGateway.today

    static func pantryScan(_ client: some TestClientProtocol, token: String, body: String = #"{"source": "pantry"}"#) async throws -> TestResponse {
        try await client.execute(.post, "/v1/scans", token: token, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
    }

    static func item(_ name: String, useSoonBy: CalendarDay?) -> PantryItem {
        PantryItem(
            id: UUID(),
            name: name,
            key: name.lowercased(),
            category: "Other",
            useSoonBy: useSoonBy,
            useSoonEstimated: false,
            source: .manual,
            addedAt: Date(),
            lastSeenAt: Date()
        )
    }

    @Test("a pantry scan is a scan whose job offers the pantry's items soonest to use first, by id, and no photo")
    func offersTheItemsSoonestFirst() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, quotaKey) = gateway.signIn()
        let rice = Self.item("Rice", useSoonBy: nil)
        let spinach = Self.item("Spinach", useSoonBy: Self.today.adding(days: 2))
        let milk = Self.item("Milk", useSoonBy: Self.today.adding(days: 1))
        _ = try await gateway.pantry.add([rice, spinach, milk], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let answer = try await Self.pantryScan(client, token: token)
            #expect(answer.status == .accepted)
            let scan = try KiwiJSON.decoder().decode(ScanResource.self, from: Data(answer.body.readableBytesView))
            #expect(gateway.workers.scanIDs == [scan.id])
            #expect(gateway.workers.pantries.first??.map(\.id) == [milk.id, spinach.id, rice.id])
            #expect(gateway.workers.ingredients.first == ["Milk", "Spinach", "Rice"])
            #expect(gateway.workers.photos.isEmpty)
            #expect(try await gateway.used(by: quotaKey) == 1)
        }
    }

    @Test("the model is offered at most 40 items, the soonest")
    func offersAtMostForty() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        let items = (0..<45).map { Self.item("Item \($0)", useSoonBy: Self.today.adding(days: $0)) }
        _ = try await gateway.pantry.add(items.reversed(), for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            #expect(try await Self.pantryScan(client, token: token).status == .accepted)
            #expect(gateway.workers.pantries.first??.map(\.id) == items.prefix(40).map(\.id))
        }
    }

    @Test("an empty pantry is 409 pantry_empty, and nothing is started or charged")
    func emptyPantry() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await Self.pantryScan(client, token: token)
            #expect(answer.status == .conflict)
            #expect(answer.errorCode == "pantry_empty")
            #expect(gateway.workers.scanIDs.isEmpty)
            #expect(try await gateway.used(by: quotaKey) == 0)
        }
    }

    @Test(
        "a JSON body that asks for no known source is 400 bad_request, and nothing is started",
        arguments: [#"{"source": "fridge"}"#, #"{}"#, #"["pantry"]"#, "pantry", #"{"source": "pantry", "for": []}"#]
    )
    func unknownSource(_ body: String) async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        _ = try await gateway.pantry.add([Self.item("Rice", useSoonBy: nil)], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let answer = try await Self.pantryScan(client, token: token, body: body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
            #expect(gateway.workers.scanIDs.isEmpty)
        }
    }

    @Test("a retry with the same Idempotency-Key finds the scan, even after the pantry changed or emptied")
    func retryFindsTheScan() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, quotaKey) = gateway.signIn()
        _ = try await gateway.pantry.add([Self.item("Rice", useSoonBy: nil)], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let key: HTTPFields = [.contentType: "application/json", HTTPField.Name("Idempotency-Key")!: "pantry-1"]
            let first = try await client.execute(.post, "/v1/scans", token: token, headers: key, body: ByteBuffer(string: #"{"source":"pantry"}"#))
            _ = try await gateway.pantry.add([Self.item("Milk", useSoonBy: nil)], for: .own(session.userId), capacity: PantryController.capacity)
            let again = try await client.execute(.post, "/v1/scans", token: token, headers: key, body: ByteBuffer(string: #"{"source":"pantry"}"#))
            #expect(again.status == first.status)
            #expect(again.headers[.location] == first.headers[.location])
            #expect(gateway.workers.scanIDs.count == 1)
            #expect(try await gateway.used(by: quotaKey) == 1)
            try await gateway.pantry.deleteAll(of: .own(session.userId))
            let emptied = try await client.execute(.post, "/v1/scans", token: token, headers: key, body: ByteBuffer(string: #"{"source":"pantry"}"#))
            #expect(emptied.headers[.location] == first.headers[.location], "a retry finds its scan though the pantry is empty now")
        }
    }
}
