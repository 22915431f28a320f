// Reads Proofline receipts with third-party clients only: kafkajs and @kafkajs/confluent-schema-registry.
// usage: node kafkajs-read-receipts.js BOOTSTRAP REGISTRY_URL TOPIC TASK_PREFIX EXPECTED
// Prints one JSON line per receipt whose task_id starts with TASK_PREFIX; then registers a schema of its
// own as the client does by default (it sets the subject's BACKWARD level first), twice, encodes and
// decodes a value with it, and prints that as a last line with a "registered" field.
const { Kafka, logLevel } = require('kafkajs');
const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');

const [bootstrap, registryUrl, topic, prefix, expectedText] = process.argv.slice(2);
const expected = Number(expectedText);

async function main() {
  const kafka = new Kafka({ clientId: 'proofline-third-party-check', brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const registry = new SchemaRegistry({ host: registryUrl });
  const consumer = kafka.consumer({ groupId: 'kafkajs-check-' + Date.now() });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const seen = new Set();
  const timer = setTimeout(async () => { console.error('timed out after ' + seen.size); process.exit(3); }, 90000);
  await new Promise((resolve) => {
    consumer.run({
      eachMessage: async ({ message }) => {
        const receipt = await registry.decode(message.value);
        if (!receipt.task_id.startsWith(prefix) || seen.has(receipt.task_id)) return;
        seen.add(receipt.task_id);
        process.stdout.write(JSON.stringify({
          key: message.key.toString(), schema_id: message.value.readInt32BE(1),
          task_id: receipt.task_id, verification_id: receipt.verification_id, signed_json: receipt.signed_json,
        }) + '\n');
        if (seen.size >= expected) resolve();
      },
    });
  });
  clearTimeout(timer);
  await consumer.disconnect();
  const schema = JSON.stringify({
    type: 'record', name: 'KafkajsCheck', namespace: 'dev.proofline.check',
    fields: [{ name: 'word', type: 'string' }],
  });
  const first = await registry.register({ type: SchemaType.AVRO, schema }, { subject: 'kafkajs-check-value' });
  const again = await registry.register({ type: SchemaType.AVRO, schema }, { subject: 'kafkajs-check-value' });
  const encoded = await registry.encode(first.id, { word: 'hello' });
  const decoded = await registry.decode(encoded);
  process.stdout.write(JSON.stringify({ registered: first.id, again: again.id, word: decoded.word }) + '\n');
}

main().catch((e) => { console.error(e); process.exit(2); });
