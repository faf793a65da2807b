/// The local stack's servers as `deploy/local/infra.sh` starts them: where the benches go unless told otherwise.
public enum LocalStack {
    /// PostgreSQL, in `DATABASE_URL`'s form.
    public static let databaseURL = "postgres://kiwi:kiwi@127.0.0.1:55432/kiwi?sslmode=disable"
    /// RabbitMQ, in `AMQP_URL`'s form.
    public static let amqpURL = "amqp://kiwi:kiwi@127.0.0.1:55672/%2F"
}
