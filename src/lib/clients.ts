// One client, as the limits (C21) and the analytics' visitors (C40) tell them apart.
import ipaddr from 'ipaddr.js';

/**
 * C21: one client, as the per-address limits count them: an IPv4 address, or an IPv6 /64 (one
 * subscriber's network: its holder has every address in it); an IPv4-mapped IPv6 address is its
 * IPv4 address. Text that is no address is its own client.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
