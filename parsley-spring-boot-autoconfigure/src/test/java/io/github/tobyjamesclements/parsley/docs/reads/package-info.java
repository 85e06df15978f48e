/**
 * The docs' Spring Security configuration of the reads endpoint, outside every package that a
 * test application scans; {@code ParsleyQueryIT} runs it.
 */
package io.github.tobyjamesclements.parsley.docs.reads;
