/** The verify front door: REST and MCP requests published onto the input topic, answered with their receipt. */
package dev.proofline.query.verify;
