import AsyncHTTPClient
import Foundation
import KiwiConcurrency
import NIOCore
import NIOHTTP1
import Synchronization

/// How long shopping-list changes take to reach another member's open event stream (`--list-pairs`), measured beside
/// the scans: households of two, as two people in one shop, one changing the list through the first gateway and the
/// other following `GET /v1/shopping-list/events` through the last. Each pair adds an item, then deletes it once the add
/// was seen, one change per `interval`. A change's delay runs from sending its request to the arrival of the first
/// event that shows it: what the second person waits for.
struct ListWatch: Sendable {
    /// The changes' gateway, and how people are signed in.
    let api: GatewayAPI
    /// The base URL of the streams' gateway.
    let streams: String
    let interval: Duration

    /// One household of two: the changing member's session token and the watching member's.
    struct Pair: Sendable {
        var changer: String
        var watcher: String
    }

    /// One change sent in the measured window, and how long until the watcher's stream showed it (nil: not within
    /// ``patience``, or the change itself failed).
    struct Change: Sendable {
        var delay: Duration?
    }

    /// How long a change may take to show before it counts as lost.
    static let patience = Duration.seconds(10)

    /// A new household of two.
    func pair(_ index: Int) async throws -> Pair {
        let (changer, watcher) = (try await api.signIn(), try await api.signIn())
        try await api.createHousehold("Shop \(index + 1)", by: changer, named: "Changer")
        try await api.join(try await api.invitation(by: changer), as: watcher, named: "Watcher")
        return Pair(changer: changer, watcher: watcher)
    }

    /// Changes `pair`'s list until `end`, while its watcher follows the stream: the changes sent from `measuringFrom` on.
    func run(_ pair: Pair, tag: Int, measuringFrom: ContinuousClock.Instant, until end: ContinuousClock.Instant) async -> [Change] {
        let sightings = Sightings()
        let watching = Task { await watch(pair.watcher, into: sightings, until: end) }
        defer { watching.cancel() }
        // The changes start once the stream has shown the list as it was.
        guard await sightings.first(after: 0, by: .now + Self.patience, where: { _ in true }) != nil else { return [] }
        var changes: [Change] = []
        var serial = 0
        while ContinuousClock.now < end {
            let name = "Item \(tag) \(serial)"
            serial += 1
            var added: String?
            let add = await timed(
                in: sightings,
                until: { $0.contains(name) },
                send: {
                    struct Addition: Decodable {
                        struct Item: Decodable { var id: String }
                        var added: [Item]
                    }
                    let addition: Addition = try await api.call(.POST, "/v1/shopping-list/items", token: pair.changer, body: ["name": name])
                    added = addition.added.first?.id
                    return added != nil
                }
            )
            if add.sent >= measuringFrom { changes.append(add.change) }
            try? await sleep(until: add.sent + interval)
            guard let added, ContinuousClock.now < end else { continue }

            let delete = await timed(
                in: sightings,
                until: { !$0.contains(name) },
                send: {
                    try await api.call(.DELETE, "/v1/shopping-list/items/\(added)", token: pair.changer)
                    return true
                }
            )
            if delete.sent >= measuringFrom { changes.append(delete.change) }
            try? await sleep(until: delete.sent + interval)
        }
        return changes
    }

    /// One change, made by `send` (true once it took effect), timed from sending it until `sightings` has a list
    /// that `shows` it; a change that failed or never showed within ``patience`` has no delay.
    private func timed(
        in sightings: Sightings,
        until shows: (Set<String>) -> Bool,
        send: () async throws -> Bool
    ) async -> (sent: ContinuousClock.Instant, change: Change) {
        let sent = ContinuousClock.now
        let seen = sightings.count
        guard (try? await send()) == true else { return (sent, Change(delay: nil)) }
        let shown = await sightings.first(after: seen, by: sent + Self.patience, where: shows)
        return (sent, Change(delay: shown.map { $0 - sent }))
    }

    /// Follows `watcher`'s list stream until `end`, opening it again whenever it ends (it lasts minutes), and records
    /// each `list` event's items as it arrives.
    private func watch(_ watcher: String, into sightings: Sightings, until end: ContinuousClock.Instant) async {
        var request = HTTPClientRequest(url: "\(streams)/v1/shopping-list/events")
        request.headers.add(name: "Authorization", value: "Bearer \(watcher)")
        while ContinuousClock.now < end, !Task.isCancelled {
            do {
                let response = try await api.client.execute(request, timeout: .hours(1))
                var reader = ListEventReader()
                for try await chunk in response.body {
                    let arrived = ContinuousClock.now
                    for names in reader.lists(in: chunk) { sightings.record(names, at: arrived) }
                }
            } catch {}
            try? await sleep(for: .seconds(1))
        }
    }
}

/// The lists a watcher's stream has shown, each with when it arrived, for the pair's changer to look through.
private final class Sightings: Sendable {
    private let shown = Mutex<[(at: ContinuousClock.Instant, names: Set<String>)]>([])

    /// How many lists have arrived.
    var count: Int { shown.withLock { $0.count } }

    func record(_ names: Set<String>, at instant: ContinuousClock.Instant) {
        shown.withLock { $0.append((instant, names)) }
    }

    /// When the first list after the first `seen` ones that satisfies `condition` arrived, looked for every 2 ms until
    /// `deadline` (the arrival is stamped by the stream's reader, so the looking does not delay it); nil if none did.
    func first(after seen: Int, by deadline: ContinuousClock.Instant, where condition: (Set<String>) -> Bool) async -> ContinuousClock.Instant? {
        while true {
            let found = shown.withLock { lists in lists.dropFirst(seen).first { condition($0.names) }?.at }
            if let found { return found }
            guard ContinuousClock.now < deadline else { return nil }
            try? await sleep(for: .milliseconds(2))
        }
    }
}

/// Reads the items' names of each `list` event of a shopping list's stream, in chunks cut anywhere.
struct ListEventReader {
    private var pending: [UInt8] = []

    /// The lists whose events end in `chunk`, each as its items' names.
    mutating func lists(in chunk: ByteBuffer) -> [Set<String>] {
        pending += chunk.readableBytesView
        var lists: [Set<String>] = []
        while let end = Self.eventEnd(in: pending) {
            let event = String(decoding: pending[..<end], as: UTF8.self)
            pending.removeFirst(end + 2)
            guard let data = event.split(separator: "\n").first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                let list = try? JSONDecoder().decode(List.self, from: Data(data.utf8))
            else { continue }
            lists.append(Set(list.sections.flatMap { $0.items.map(\.name) }))
        }
        return lists
    }

    private struct List: Decodable {
        struct Section: Decodable {
            struct Item: Decodable { var name: String }
            var items: [Item]
        }
        var sections: [Section]
    }

    /// Where the first event in `bytes` ends: the index of the blank line's first newline.
    private static func eventEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        return (0..<(bytes.count - 1)).first { bytes[$0] == 10 && bytes[$0 + 1] == 10 }
    }
}
