import CoreMetrics

/// The metrics of the RabbitMQ connections with one connection name (`kiwi-gateway requests`, `kiwi-scan-worker`, …),
/// which labels them as `connection`. Names are fixed per service, so the series stay few.
struct AMQPMetrics: Sendable {
    /// `kiwi_amqp_connections_open`: connections of this name open right now.
    let open: Meter
    /// `kiwi_amqp_connections_total{result="opened"}` and `{result="failed"}`: connection attempts by outcome.
    let opened: Counter
    let failedToOpen: Counter
    /// `kiwi_amqp_reconnections_total`: connections opened after an earlier one was lost or an attempt failed.
    let reconnections: Counter
    /// `kiwi_amqp_connections_lost_total`: open connections that dropped (not counting shutdowns).
    let lost: Counter
    /// `kiwi_amqp_publishes_total`: messages handed to the broker.
    let publishes: Counter
    /// `kiwi_amqp_confirms_total{result="ack|nack|unroutable"}`: the broker's verdicts on published messages.
    let acknowledged: Counter
    let refused: Counter
    let unroutable: Counter
    /// `kiwi_amqp_deliveries_total` and `kiwi_amqp_redeliveries_total` (deliveries the broker flagged as seen before).
    let deliveries: Counter
    let redeliveries: Counter

    init(connection: String) {
        let label = ("connection", connection)
        open = Meter(label: "kiwi_amqp_connections_open", dimensions: [label])
        opened = Counter(label: "kiwi_amqp_connections_total", dimensions: [label, ("result", "opened")])
        failedToOpen = Counter(label: "kiwi_amqp_connections_total", dimensions: [label, ("result", "failed")])
        reconnections = Counter(label: "kiwi_amqp_reconnections_total", dimensions: [label])
        lost = Counter(label: "kiwi_amqp_connections_lost_total", dimensions: [label])
        publishes = Counter(label: "kiwi_amqp_publishes_total", dimensions: [label])
        acknowledged = Counter(label: "kiwi_amqp_confirms_total", dimensions: [label, ("result", "ack")])
        refused = Counter(label: "kiwi_amqp_confirms_total", dimensions: [label, ("result", "nack")])
        unroutable = Counter(label: "kiwi_amqp_confirms_total", dimensions: [label, ("result", "unroutable")])
        deliveries = Counter(label: "kiwi_amqp_deliveries_total", dimensions: [label])
        redeliveries = Counter(label: "kiwi_amqp_redeliveries_total", dimensions: [label])
    }
}
