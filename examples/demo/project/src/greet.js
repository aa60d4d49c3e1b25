// A tiny module for the hookloop demo: the scripted agent fixes the greeting.
export function greet(name) {
  return `Helo, ${name}!`;
}
