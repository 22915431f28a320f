// Writes the request in argv[3] to the input topic with kafkajs, once per negative record timestamp
// (the broker takes them; Kafka Streams' default extractor would fail a stream thread on each).
// usage: node kafkajs-negative-timestamps.js BOOTSTRAP TOPIC REQUEST_FILE CORRELATION_PREFIX
// Prints one line per record written: its correlation id.
const { Kafka, logLevel } = require('kafkajs');
const fs = require('fs');

const [bootstrap, topic, requestFile, prefix] = process.argv.slice(2);

async function main() {
  const kafka = new Kafka({ clientId: 'proofline-negative-timestamps', brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  const value = fs.readFileSync(requestFile);
  for (const timestamp of ['-1', '-5', '-86400000']) {
    const id = prefix + timestamp;
    await producer.send({ topic, acks: -1, messages: [{ value, timestamp, headers: { 'proofline.correlation-id': id } }] });
    console.log(id);
  }
  await producer.disconnect();
}

main().catch((e) => { console.error(e); process.exit(2); });
