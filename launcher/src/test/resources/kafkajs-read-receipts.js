// Reads Proofline receipts with third-party clients only: kafkajs and @kafkajs/confluent-schema-registry.
// usage: node kafkajs-read-receipts.js BOOTSTRAP REGISTRY_URL TOPIC TASK_PREFIX EXPECTED
// Prints one JSON line per receipt whose task_id starts with TASK_PREFIX, then exits.
const { Kafka, logLevel } = require('kafkajs');
const { SchemaRegistry } = require('@kafkajs/confluent-schema-registry');

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
}

main().catch((e) => { console.error(e); process.exit(2); });
