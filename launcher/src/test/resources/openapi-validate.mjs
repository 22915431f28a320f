// Validates an OpenAPI document with a third-party validator (@apidevtools/swagger-parser).
// usage: node openapi-validate.mjs OPENAPI.json   -> prints "valid <title> <version>" or exits 1 with the reason
import SwaggerParser from '@apidevtools/swagger-parser';

try {
  const api = await SwaggerParser.validate(process.argv[2]);
  console.log(`valid ${api.info.title} ${api.openapi}`);
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
