import Foundation

/// The events of a server-sent event stream's text (the WHATWG format as Kiwi writes it: one line per field, events
/// separated by a blank line), each as its fields by name. Comments (heartbeats) are left out.
public func serverSentEvents(in text: String) -> [[String: String]] {
    text.components(separatedBy: "\n\n").filter { !$0.isEmpty && !$0.hasPrefix(":") }.map { block in
        var fields: [String: String] = [:]
        for line in block.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
